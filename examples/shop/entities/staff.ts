import { Collection, type Opt, type Ref } from "@mikro-orm/core";
import { Entity, ManyToOne, OneToMany, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";

/**
 * A member of the shop's staff: the root of a single-table inheritance that is not declared
 * abstract but has no discriminator value of its own (MikroORM's `BaseUser2` shape), so it has no
 * rows of its own. GraphQL: the interface `Staff`, implemented by `Clerk`, `ManagerOnly` and
 * `Owner` (and the interface `Manager`); no `createStaff`, which could never succeed.
 */
@Entity({
  discriminatorColumn: "role",
  discriminatorMap: { clerk: "Clerk", manager: "Manager", owner: "Owner" },
})
@QueryField()
@Mutations()
export class Staff {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The staff member's name. */
  @OrderField("NAME")
  @Property({ type: "string" })
  name!: string;

  /** The discriminator column (the `__typename`, not a field). */
  @Property({ type: "string" })
  role!: Opt<string>;
}

/** A clerk, listed by its own root field (`clerks`). */
@Entity()
@QueryField()
export class Clerk extends Staff {
  /** The clerk's desk, if any. */
  @Property({ type: "string", nullable: true })
  desk?: string;

  /** The managers this clerk assists (owners among them: the edge is typed by the interface). */
  @OneToMany({ entity: () => Manager, mappedBy: (m: Manager) => m.assistant })
  assists = new Collection<Manager>(this);
}

/**
 * A manager: a class with rows of its own and a subclass (`Owner`). GraphQL: the interface
 * `Manager` (what fields, edges, connections and `... on Manager` fragments are typed by: owners
 * included, as `instanceof Manager`) and the object type `ManagerOnly` of the rows that are
 * exactly a manager.
 */
@Entity()
@QueryField()
export class Manager extends Staff {
  /** The manager's budget. */
  @Property({ type: "integer" })
  budget!: number;

  /** The clerk assisting this manager. */
  @ManyToOne({ entity: () => Clerk, ref: true, nullable: true, index: true })
  assistant?: Ref<Clerk>;
}

/** An owner: a manager with shares (a second level of the single-table inheritance). */
@Entity()
export class Owner extends Manager {
  /** The owner's shares, in percent. */
  @Property({ type: "integer" })
  shares!: number;
}
