import { defineEntity, p } from "@mikro-orm/core";

/** A point on the map: nested inside {@linkcode Address}. */
export const Geo = defineEntity({
  name: "Geo",
  embeddable: true,
  properties: {
    /** The latitude, in degrees. */
    lat: p.double(),
    /** The longitude, in degrees. */
    lng: p.double(),
  },
});

/**
 * A postal address (`defineEntity` embeddable): inline on `Customer.address` (flattened columns),
 * as a JSON object on `Order.shippingAddress`; holds the nested embeddable `Geo`.
 */
export const Address = defineEntity({
  name: "Address",
  embeddable: true,
  properties: {
    /** The street and house number. */
    street: p.string(),
    /** The city. */
    city: p.string(),
    /** The postal code, if the country has one. */
    zip: p.string().nullable(),
    /** The address's position on the map, if known. */
    geo: () => p.embedded(Geo).nullable(),
  },
});
