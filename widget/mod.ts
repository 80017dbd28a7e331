/**
 * The documentation search box (see shared/spec/search-widget.md).
 *
 * @module
 */
export {};
