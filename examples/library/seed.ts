/**
 * Seed data of the library example, chosen so that keys collide in every part but one: two
 * members named John, copy number 1 of two titles, branch code `central` in two countries.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { BookCopy } from "./entities/book_copy.ts";
import { Branch } from "./entities/branch.ts";
import { Loan } from "./entities/loan.ts";
import { Member } from "./entities/member.ts";
import { Publisher } from "./entities/publisher.ts";
import { Title } from "./entities/title.ts";

/**
 * Inserts deterministic data: 2 publishers, 3 titles, 5 copies, 3 branches, 3 members, 4 loans.
 *
 * @returns the number of rows inserted
 */
export async function seed(em: EntityManager): Promise<number> {
  const [penguin, folio] = ["Penguin", "Folio"].map((name) => em.create(Publisher, { name }));
  const [dune, emma, ulysses] = [
    { name: "Dune", publisher: penguin.id },
    { name: "Emma", publisher: folio.id },
    { name: "Ulysses", publisher: null },
  ].map((t) => em.create(Title, t));
  await em.flush();
  // The titles' keys exist now: mapToPk relations hold them.
  dune.publisher = penguin.id;
  emma.publisher = folio.id;
  const [frCentral, beCentral, frNorth] = [
    { country: "fr", code: "central", name: "Paris Central" },
    { country: "be", code: "central", name: "Brussels Central" },
    { country: "fr", code: "north", name: "Lille" },
  ].map((b) => em.create(Branch, b));
  const copies = [
    { title: dune, copyNumber: 1, branch: frCentral },
    { title: dune, copyNumber: 2, branch: beCentral, condition: "worn" },
    { title: emma, copyNumber: 1, branch: beCentral },
    { title: emma, copyNumber: 2, branch: frNorth },
    { title: ulysses, copyNumber: 1, branch: null },
  ].map((c) => em.create(BookCopy, c));
  const [johnSmith, johnDoe, jane] = [
    { firstName: "John", lastName: "Smith", age: 40, favouriteCopy: copies[2] },
    { firstName: "John", lastName: "Doe", age: 31, favouriteCopy: copies[0] },
    { firstName: "Jane", lastName: "Smith", favouriteCopy: null },
  ].map((m) => em.create(Member, m));
  frCentral.members.add(johnSmith, jane);
  beCentral.members.add(johnDoe);
  frNorth.members.add(johnSmith);
  const day = (d: number) => new Date(Date.UTC(2026, 2, d));
  [
    { copy: copies[0], member: johnSmith, due: day(1) },
    { copy: copies[2], member: johnDoe, due: day(2) },
    { copy: copies[3], member: johnSmith, due: day(3) },
    { copy: copies[2], member: jane, due: day(4) },
  ].forEach((l) => em.create(Loan, l));
  await em.flush();
  return 2 + 3 + 3 + 5 + 3 + 4;
}
