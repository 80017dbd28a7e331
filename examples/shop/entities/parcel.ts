import { Embeddable, Enum, Property } from "@mikro-orm/decorators/es";

/** Size class of a parcel. */
export enum ParcelSize {
  Small = "S",
  Medium = "M",
  Large = "L",
}

/** One parcel of an order (decorator embeddable, stored as an array: `Order.parcels`). */
@Embeddable()
export class Parcel {
  @Property({ type: "integer" })
  weightGrams!: number;

  @Property({ type: "string", nullable: true })
  label?: string;

  @Enum({ items: () => ParcelSize })
  size: ParcelSize = ParcelSize.Medium;
}
