/**
 * Numeric enums of the language-learning app, in a module of their own outside `entities/` (as an
 * app's shared code keeps them), with negative members: `-1` and `1` must stay two GraphQL enum
 * values (`Unknown`, `Beginner`), not both `_1`.
 *
 * @module
 */

/** How well a learner speaks the language they learn. */
export enum Proficiency {
  Unknown = -1,
  None = 0,
  Beginner = 1,
  Intermediate = 2,
  Fluent = 3,
}

/** Who sees a deck: below zero, fewer people than its owner's followers. */
export enum Visibility {
  Hidden = -2,
  Private = -1,
  Followers = 0,
  Public = 1,
}
