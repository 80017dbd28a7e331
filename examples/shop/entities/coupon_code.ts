import { type Platform, Type } from "@mikro-orm/core";

/**
 * A custom MikroORM type (`Type` subclass): coupon codes are stored upper-cased in a
 * `varchar(16)`; GraphQL sees a `String` (its runtime type) and filters through the conversion.
 */
export class CouponCodeType extends Type<string | null | undefined, string | null | undefined> {
  override convertToDatabaseValue(value: string | null | undefined): string | null | undefined {
    return typeof value === "string" ? value.trim().toUpperCase() : value;
  }

  override convertToJSValue(value: string | null | undefined): string | null | undefined {
    return value;
  }

  override getColumnType(_prop: unknown, _platform: Platform): string {
    return "varchar(16)";
  }

  override get runtimeType(): string {
    return "string";
  }
}
