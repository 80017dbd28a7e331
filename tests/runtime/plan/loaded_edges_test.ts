/**
 * `LoadedEdges` (`plan/loaded_edges.ts`) against a plain reference model of what it keeps (per
 * parent, per `<scope>|<edge key>`, the loads in the order stored, one per plan; a scope's
 * unplanned mark hiding them all) on generated sequences of stores, marks and lookups:
 * every lookup returns the model's value, and `mine` is asked with the same plans in the same
 * order. `LOADED_EDGES_SEED=<n>` replays a run (the seed is in the test's name).
 */
import { assertEquals, assertStrictEquals } from "@std/assert";
import { LoadedEdges } from "../../../runtime/plan/loaded_edges.ts";
import { random } from "../../support/random_data.ts";
import { testSeed } from "../../support/test_seed.ts";

const SEED = testSeed("LOADED_EDGES_SEED", 20_261_130);

/** The store as `loaded_edges.ts` kept it before its chain of loads: maps and lists. */
class ReferenceLoads {
  readonly #loads = new Map<object, Map<string, { value: unknown; plan: object }[] | true>>();

  store(parent: object, scope: string, key: string, value: unknown, plan: object): void {
    const map = this.#of(parent);
    const loads = (map.get(`${scope}|${key}`) ?? []) as { value: unknown; plan: object }[];
    const same = loads.findIndex((l) => l.plan === plan);
    if (same >= 0) loads[same] = { value, plan };
    else loads.push({ value, plan });
    map.set(`${scope}|${key}`, loads);
  }

  markUnplanned(parent: object, scope: string): void {
    this.#of(parent).set(`${scope}|`, true);
  }

  find(parent: object, scope: string, key: string, mine: (plans: object[]) => number) {
    const map = this.#loads.get(parent);
    if (!map || map.has(`${scope}|`)) return undefined;
    const loads = map.get(`${scope}|${key}`) as { value: unknown; plan: object }[] | undefined;
    if (!loads) return undefined;
    if (loads.length === 1) return { value: loads[0].value };
    const index = mine(loads.map((l) => l.plan));
    return index >= 0 ? { value: loads[index].value } : undefined;
  }

  #of(parent: object) {
    let map = this.#loads.get(parent);
    if (!map) this.#loads.set(parent, map = new Map());
    return map;
  }
}

Deno.test(`LoadedEdges answers as the reference model on generated operations (seed ${SEED})`, () => {
  const rand = random(SEED);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const scopes = ["users", "a", "b"];
  const keys = ['posts:{"first":10}', "author:{}", 'posts:{"last":2}'];
  let found = 0;
  for (let run = 0; run < 200; run++) {
    const parents = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, i) => ({ parent: i }));
    const plans = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, i) => ({ plan: i }));
    const loaded = new LoadedEdges();
    const model = new ReferenceLoads();
    for (let step = 0; step < 40; step++) {
      const parent = pick(parents), scope = pick(scopes), key = pick(keys);
      const draw = rand();
      if (draw < 0.5) {
        const value = rand() < 0.1 ? null : { value: step };
        const plan = pick(plans);
        loaded.store(parent, scope, key, value, plan);
        model.store(parent, scope, key, value, plan);
      } else if (draw < 0.55) {
        loaded.markUnplanned(parent, scope);
        model.markUnplanned(parent, scope);
      } else {
        // `mine` picks a plan by identity (or none): both must be asked the same plans.
        const wanted = rand() < 0.2 ? undefined : pick(plans);
        const asked: object[][] = [[], []];
        const mine = (side: number) => (list: object[]) => {
          asked[side] = list;
          return wanted ? list.indexOf(wanted) : -1;
        };
        const got = loaded.find(parent, scope, key, mine(0));
        const want = model.find(parent, scope, key, mine(1));
        const context = JSON.stringify({ run, step, parent, scope, key });
        assertEquals(got === undefined, want === undefined, context);
        if (got && want) assertStrictEquals(got.value, want.value, context);
        assertEquals(asked[0].length, asked[1].length, context);
        asked[0].forEach((plan, i) => assertStrictEquals(plan, asked[1][i], context));
        if (want) found++;
      }
    }
    // Pages read ahead: kept per parent and edge plan, never another's.
    const page = { rows: [] };
    loaded.prefetch(parents[0], plans[0], page);
    assertStrictEquals(loaded.prefetched(parents[0], plans[0]), page);
    if (plans.length > 1) assertEquals(loaded.prefetched(parents[0], plans[1]), undefined);
    assertEquals(new LoadedEdges().prefetched(parents[0], plans[0]), undefined);
  }
  // The draws reached stored loads, several per key included (else the test proves little).
  assertEquals(found > 100, true, `${found} lookups found a load`);
});
