/**
 * `foldChanges`: a transaction's records, in flush order, folded to one per row as the commit
 * left it, against a reference (the row's existence before and after the transaction) over
 * random sequences (printed seed).
 */
import { assertEquals } from "@std/assert";
import {
  type ChangeOperationName,
  type ChangeRecord,
  changeTopic,
  foldChanges,
} from "../../../runtime/events/change_record.ts";
import { random } from "../../support/random_data.ts";

const r = (op: ChangeOperationName, id: number, entity = "Task"): ChangeRecord => ({
  entity,
  op,
  key: [id],
});

Deno.test("foldChanges: the fixed cases", () => {
  assertEquals(foldChanges([r("CREATED", 1), r("UPDATED", 1)]), [r("CREATED", 1)]);
  assertEquals(foldChanges([r("CREATED", 1), r("DELETED", 1)]), []);
  assertEquals(foldChanges([r("UPDATED", 1), r("DELETED", 1)]), [r("DELETED", 1)]);
  assertEquals(foldChanges([r("DELETED", 1), r("CREATED", 1)]), [r("UPDATED", 1)]);
  assertEquals(foldChanges([r("DELETED", 1), r("UPDATED", 1)]), [r("DELETED", 1)]);
  assertEquals(foldChanges([r("CREATED", 1), r("DELETED", 1), r("CREATED", 1)]), [
    r("CREATED", 1),
  ]);
  assertEquals(foldChanges([r("UPDATED", 1), r("UPDATED", 1, "Post")]), [
    r("UPDATED", 1),
    r("UPDATED", 1, "Post"),
  ]);
  assertEquals(changeTopic("h37:", "Task"), "h37:changed:Task");
});

Deno.test("foldChanges: the row's state before and after decides, over random sequences", () => {
  const seed = Number(Deno.env.get("FOLD_SEED") ?? 37);
  console.log(`seed ${seed} (FOLD_SEED)`);
  const rng = random(seed);
  for (let run = 0; run < 500; run++) {
    // A row that exists or not at the start, then valid operations on it.
    const existedBefore = rng() < 0.5;
    let exists = existedBefore;
    let touched = false;
    const records: ChangeRecord[] = [];
    for (let step = Math.floor(rng() * 5); step >= 0; step--) {
      const op: ChangeOperationName = !exists ? "CREATED" : rng() < 0.6 ? "UPDATED" : "DELETED";
      exists = op !== "DELETED";
      touched = true;
      records.push(r(op, 7));
    }
    const expected: ChangeOperationName | undefined = !touched
      ? undefined
      : existedBefore && exists
      ? "UPDATED"
      : existedBefore
      ? "DELETED"
      : exists
      ? "CREATED"
      : undefined;
    assertEquals(
      foldChanges(records).map((c) => c.op),
      expected ? [expected] : [],
      JSON.stringify(records.map((c) => c.op)),
    );
  }
});
