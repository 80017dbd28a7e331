/**
 * The queries of the peer benchmark: the floor `{ __typename }` and Q1-Q5, written
 * for either schema's names (ours, PostGraphile's).
 *
 * @module
 */
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { SIZE } from "./data.ts";

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
  /**
   * A keyset page's start: the `$after` variable is the cursor after this many users (in the
   * order of their ids); the queries without `$after` have none.
   */
  after?: number;
  /** Q1's shape: the page size of each of its three levels. */
  first?: number;
}

const tree = (n: Names, count: string, first = 10) =>
  `{ ${n.users}(first: ${first}) { ${count} edges { node { id name ${n.posts}(first: ${first}) { ${count} edges { node { id title ${n.comments}(first: ${first}) { ${count} edges { node { id text } } } } } } } } } }`;

const KEYSET_PAGE = (n: Names) =>
  `query ($after: Cursor) { ${n.users}(first: 10, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id name } } } }`;

export const QUERIES: Query[] = [
  { name: "floor", label: "{ __typename }", text: () => `{ __typename }` },
  {
    name: "Q1",
    label: "users(10) → posts(10) → comments(10)",
    text: (n) => tree(n, ""),
    first: 10,
  },
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
    text: KEYSET_PAGE,
    after: 1_900,
  },
  {
    name: "Q5",
    label: "node(id) of a post with comments(first:10)",
    text: (n) =>
      `query ($id: ID!) { node(id: $id) { id ... on Post { title ${n.comments}(first: 10) { edges { node { id text } } } } } }`,
  },
];

/**
 * The queries of `bench:growth` (`bench/growth.ts`): Q1 at 1, 10 and 100 nodes per level (the
 * data set has 10 posts per user and 10 comments per post, so 100 per level reads 100 users, 1,000
 * posts and 10,000 comments), and Q4 after the 1,900th, the 19,000th and the 190,000th user
 * (of 200,000).
 */
export const GROWTH: Query[] = [
  ...[1, 10, 100].map((first) => ({
    name: `Q1/${first}`,
    label: `Q1 at first: ${first} on every level`,
    text: (n: Names) => tree(n, "", first),
    first,
  })),
  ...[1_900, 19_000, 190_000].map((after) => ({
    name: `Q4@${after}`,
    label: `Q4 after the ${after.toLocaleString("en")}th user`,
    text: KEYSET_PAGE,
    after,
  })),
];

/**
 * The cursor after the `row`th user (in id order), in the format of the server `post` talks to,
 * read page by page (at most 1,000 rows a page: our maximum page size).
 *
 * @param post runs `query` with `variables` on the server and returns its `data`
 */
export async function cursorAfter(
  row: number,
  names: Names,
  post: (query: string, variables: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<string> {
  let after: string | null = null;
  const pages = Array.from(
    { length: Math.ceil(row / 1000) },
    (_, i) => Math.min(1000, row - i * 1000),
  );
  for (const first of pages) {
    const data = await post(
      `query ($first: Int, $after: Cursor) { ${names.users}(first: $first, after: $after) { pageInfo { endCursor } } }`,
      { first, after },
    );
    after = (data[names.users] as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
  }
  return after!;
}

/**
 * Runs `query` with `variables` on the GraphQL server at `url` (POST, JSON) and returns its
 * `data`.
 *
 * @throws Error with the answer as JSON when it has errors or no data
 */
export async function postQuery(
  url: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const answer = await response.json();
  if (answer.errors || !answer.data) throw new Error(JSON.stringify(answer));
  return answer.data;
}

/**
 * The variables the queries take on our server at `url` (the peer data loaded): `after`, the
 * cursor after the 1,900th user, and `id`, the global id of the middle post.
 */
export async function oursVariables(url: string): Promise<{ after: string; id: string }> {
  return {
    after: await cursorAfter(1_900, OURS, (query, variables) => postQuery(url, query, variables)),
    id: encodeGlobalId("Post", SIZE.posts / 2),
  };
}
