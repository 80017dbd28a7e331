import { defineEntity, p } from "@mikro-orm/core";

/** A point on the map: nested inside {@linkcode Address}. */
export const Geo = defineEntity({
  name: "Geo",
  embeddable: true,
  properties: {
    lat: p.double(),
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
    street: p.string(),
    city: p.string(),
    zip: p.string().nullable(),
    geo: () => p.embedded(Geo).nullable(),
  },
});
