/**
 * The queries of the peer benchmark: the floor `{ __typename }` and Q1-Q5, written
 * for either schema's names (ours, PostGraphile's).
 *
 * @module
 */

/** The GraphQL names that differ between the two schemas. */
export interface Names {
  users: string;
  posts: string;
  comments: string;
}
export const OURS: Names = { users: "users", posts: "posts", comments: "comments" };
export const POSTGRAPHILE: Names = {
  users: "allUsers",
  posts: "postsByAuthorId",
  comments: "commentsByPostId",
};

/** One benchmark query: its text in a schema's names, and its variables. */
export interface Query {
  name: string;
  label: string;
  text(n: Names): string;
}

const tree = (n: Names, count: string) =>
  `{ ${n.users}(first: 10) { ${count} edges { node { id name ${n.posts}(first: 10) { ${count} edges { node { id title ${n.comments}(first: 10) { ${count} edges { node { id text } } } } } } } } } }`;

export const QUERIES: Query[] = [
  { name: "floor", label: "{ __typename }", text: () => `{ __typename }` },
  { name: "Q1", label: "users(10) → posts(10) → comments(10)", text: (n) => tree(n, "") },
  { name: "Q2", label: "Q1 + totalCount at every level", text: (n) => tree(n, "totalCount") },
  {
    name: "Q3",
    label: "users(first:50) flat, pageInfo, totalCount",
    text: (n) =>
      `{ ${n.users}(first: 50) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id name email createdAt } } } }`,
  },
  {
    name: "Q4",
    label: "keyset page after the 1,900th user, first:10",
    text: (n) =>
      `query ($after: Cursor) { ${n.users}(first: 10, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id name } } } }`,
  },
  {
    name: "Q5",
    label: "node(id) of a post with comments(first:10)",
    text: (n) =>
      `query ($id: ID!) { node(id: $id) { id ... on Post { title ${n.comments}(first: 10) { edges { node { id text } } } } } }`,
  },
];

/**
 * The cursor after the 1,900th user of the peer data set, in the format of the server `post`
 * talks to (pages of at most 1,000: our maximum page size).
 *
 * @param post runs `query` with `variables` on the server and returns its `data`
 */
export async function cursorAfter1900(
  names: Names,
  post: (query: string, variables: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<string> {
  let after: string | null = null;
  for (const first of [1000, 900]) {
    const data = await post(
      `query ($first: Int, $after: Cursor) { ${names.users}(first: $first, after: $after) { pageInfo { endCursor } } }`,
      { first, after },
    );
    after = (data[names.users] as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
  }
  return after!;
}
