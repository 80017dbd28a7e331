/**
 * Doc comments become descriptions: `readDocs` finds the comment of an entity and of each property
 * (a `defineEntity` key, a class member behind decorators, a getter), and the generated shop
 * schema carries them where the generator has to look further: an inherited property (documented
 * on the inheritance root), a computed getter, an embeddable's object type and input fields.
 */
import { assertEquals } from "@std/assert";
import { buildSchema, type GraphQLInputObjectType, type GraphQLObjectType } from "graphql";
import { fromFileUrl, join } from "@std/path";
import { readDocs } from "../../gen/doc_comments.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

Deno.test("readDocs: entity, defineEntity key, decorated member and getter comments; inline links as code or their label", () => {
  const docs = readDocs(`
/** A shop, see {@linkcode Order} and {@link Order | its orders}. */
export const Shop = defineEntity({
  name: "Shop",
  properties: {
    /** Its name. */
    name: p.string(),
  },
});

/** An order. */
@Entity()
export class Order {
  /** When it was placed. */
  @Property({ type: "datetime" })
  placedAt!: Date;

  /** A summary, computed. */
  @Property({ type: "string", persist: false })
  get summary(): string {
    return "";
  }
}
`);
  assertEquals([...docs.entities], [
    ["Shop", "A shop, see `Order` and its orders."],
    ["Order", "An order."],
  ]);
  assertEquals([...docs.properties], [
    ["Shop.name", "Its name."],
    ["Order.placedAt", "When it was placed."],
    ["Order.summary", "A summary, computed."],
  ]);
});

Deno.test("descriptions the shop example inherits, computes and embeds", async () => {
  const schema = buildSchema(
    await Deno.readTextFile(join(root, "examples/shop/generated/schema.graphql")),
  );
  const field = (type: string, name: string) =>
    (schema.getType(type) as GraphQLObjectType).getFields()[name].description;
  // Payment.amount is declared (and documented) on the abstract root only.
  assertEquals(field("Payment", "amount"), "The amount paid, a decimal.");
  assertEquals(field("CardPayment", "amount"), "The amount paid, a decimal.");
  assertEquals(field("TransferPayment", "order"), "The order paid for.");
  // Table-per-type: Book's name comes from Product.
  assertEquals(field("Book", "name"), "The product's name.");
  assertEquals(
    field("Order", "summary"),
    "Computed from `status` and `placedAt` when selected (`persist: false`).",
  );
  assertEquals(field("Customer", "address"), "Inline embeddable: flattened `address_*` columns.");
  assertEquals(schema.getType("Geo")?.description, "A point on the map: nested inside `Address`.");
  assertEquals(field("Address", "street"), "The street and house number.");
  const input = schema.getType("AddressInput") as GraphQLInputObjectType;
  assertEquals(input.getFields().street.description, "The street and house number.");
});
