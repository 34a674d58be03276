/**
 * Typed, synchronous helpers over Durable Object SQLite. Only stores (`*.store.ts`) and this folder
 * issue SQL. Cursors are always consumed before returning, so no caller can hold one across an await.
 */

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

export class Db {
  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
  ) {}

  all<T extends Row = Row>(query: string, ...params: SqlValue[]): T[] {
    return this.sql.exec<T>(query, ...params).toArray();
  }

  one<T extends Row = Row>(query: string, ...params: SqlValue[]): T | undefined {
    return this.sql.exec<T>(query, ...params).toArray()[0];
  }

  run(query: string, ...params: SqlValue[]): number {
    return this.sql.exec(query, ...params).rowsWritten;
  }

  /** All of `fn` lands or none of it does: a throw rolls every statement back. */
  transaction<T>(fn: () => T): T {
    return this.storage.transactionSync(fn);
  }

  get sizeBytes(): number {
    return this.sql.databaseSize;
  }
}
