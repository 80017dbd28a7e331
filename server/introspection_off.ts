/**
 * Introspection off, as `serve()` runs it under `NODE_ENV=production`: graphql-js's
 * `NoSchemaIntrospectionCustomRule` added to every request's validation. Yoga's
 * `useDisableIntrospection` does the same with a hook more per request (an `onRequestParse` that
 * asks whether this request may introspect and marks it in a `WeakSet`); `serve()` refuses
 * introspection to every request alike, so the rule is added without asking. The validation's
 * result is still cached per document (`runtime/plugins/document_cache.ts` keys it by the rules).
 *
 * @module
 */
import { NoSchemaIntrospectionCustomRule } from "graphql";
import type { Plugin } from "graphql-yoga";

/** The plugin refusing `__schema` and `__type` (validation errors, HTTP 400) on every request. */
export function IntrospectionOff(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
