/**
 * The keys a row stores for the unique edges an update clears. A row read through the read rules
 * holds `null` for a nullable many-to-one (or owning one-to-one) whose target the rules hide:
 * MikroORM joins such a reference with its target's filters (`autoJoinRefsForFilters`) and loads
 * a hidden target as no target. Clearing that edge then changes nothing MikroORM can see, so the
 * stored key stayed while the update answered success (a task's OWNER unassigning a user they no
 * longer share an organization with: the user kept the assignment, and with it a confidential
 * task). Found by the workspace reference model (`MODEL_SEED=216598748`).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { MutationInputFieldDescription } from "../graph.ts";

/**
 * Reads `entity` (managed, loaded for an update through `em`'s filters) again without filters
 * when one of `fields` clears a unique edge that loaded as `null`, so the entity holds the keys the
 * row stores and the clear is a change MikroORM writes (and publishes). No statement otherwise.
 * The references reloaded are not populated: nothing of a hidden target is read, and the written
 * row is read back through the read rules (`read_back.ts`).
 *
 * @param fields the update's given input fields (`input_fields.ts`)
 */
export async function loadStoredReferences(
  em: EntityManager,
  entity: Record<string, unknown>,
  fields: { field: MutationInputFieldDescription }[],
): Promise<void> {
  const cleared = fields.some(({ field }) =>
    field.op === "clear" && field.kind === "edge" && entity[field.prop] == null
  );
  if (cleared) await em.refresh(entity, { filters: false });
}
