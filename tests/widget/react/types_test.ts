/**
 * The React package's hand-written declarations
 * (`widget/react/searchbox-react.d.ts` and `sidepanel.d.ts`, published with
 * the build) against the source's props (`widget/react/mod.ts`, `sidepanel.ts`): the same prop names, the same
 * required ones. Checked by the type checker: a difference fails `deno test`
 * (and `deno check`) on this file.
 */
import { assert } from "@std/assert";
import type { SearchBoxProps as Declared } from "../../../widget/react/searchbox-react.d.ts";
import type { SidePanelProps as DeclaredPanel } from "../../../widget/react/sidepanel.d.ts";
import type { SearchBoxProps as Source } from "../../../widget/react/mod.ts";
import type { SidePanelProps as SourcePanel } from "../../../widget/react/sidepanel.ts";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

const sameNames: Same<keyof Declared, keyof Source> = true;
const sameRequired: Same<RequiredKeys<Declared>, RequiredKeys<Source>> = true;
const samePanelNames: Same<keyof DeclaredPanel, keyof SourcePanel> = true;
const samePanelRequired: Same<RequiredKeys<DeclaredPanel>, RequiredKeys<SourcePanel>> = true;

Deno.test("the React package's declarations have the source's props", () => {
  assert(sameNames && sameRequired && samePanelNames && samePanelRequired);
});
