/**
 * The library's entity classes, for servers, tests and benchmarks.
 *
 * @module
 */
import { BookCopy } from "./entities/book_copy.ts";
import { Branch } from "./entities/branch.ts";
import { Loan } from "./entities/loan.ts";
import { Member } from "./entities/member.ts";
import { Publisher } from "./entities/publisher.ts";
import { Title } from "./entities/title.ts";

/** The library's entities. */
export const entities = [Publisher, Title, BookCopy, Branch, Member, Loan];
