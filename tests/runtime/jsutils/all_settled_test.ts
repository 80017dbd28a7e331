/**
 * `allSettled`: waits for every promise (none left running when one fails), then answers the
 * values in order or throws the first rejection in order of the list.
 */
import { assertEquals, assertRejects } from "@std/assert";
import { allSettled } from "../../../runtime/jsutils/all_settled.ts";

Deno.test("allSettled: the values in order", async () => {
  assertEquals(await allSettled([Promise.resolve(1), Promise.resolve(2)]), [1, 2]);
  assertEquals(await allSettled([]), []);
});

Deno.test("allSettled: every promise settles before the first rejection is thrown", async () => {
  let late = false;
  const slow = new Promise<number>((resolve) =>
    setTimeout(() => {
      late = true;
      resolve(3);
    }, 0)
  );
  const error = await assertRejects(
    () =>
      allSettled([Promise.reject(new Error("first")), Promise.reject(new Error("second")), slow]),
    Error,
  );
  assertEquals([error.message, late], ["first", true]);
});
