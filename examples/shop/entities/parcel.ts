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
  /** The parcel's weight in grams. */
  @Property({ type: "integer" })
  weightGrams!: number;

  /** The text on the parcel's label, if any. */
  @Property({ type: "string", nullable: true })
  label?: string;

  /** The parcel's size class. */
  @Enum({ items: () => ParcelSize })
  size: ParcelSize = ParcelSize.Medium;
}
