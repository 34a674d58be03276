/**
 * Typed, synchronous helpers over Durable Object SQLite. Only stores (`*.store.ts`) and this folder
 * issue SQL. Cursors are always consumed before returning, so no caller can hold one across an await.
 */

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

export class Db {
  /** Rows written through this handle since it was made (triggers included): the executor's change detector. */
  private written = 0;

  /**
   * Facts read from the database that a handle keeps between calls (say, how far a backfill got), by
   * their owner's key. The owner keeps them true as it writes; `migrate` forgets them all, since a
   * migration may change them.
   */
  readonly remembered = new Map<string, unknown>();
  /** Rows read through this handle since it was made (what Cloudflare bills as rows read). */
  private read = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
  ) {}

  /**
   * Rows are read as arrays and turned into objects here: workerd builds row objects in C++ through
   * the V8 API, which costs about twice as much as this loop (measured on 50 wide rows).
   */
  all<T extends Row = Row>(query: string, ...params: SqlValue[]): T[] {
    const cursor = this.sql.exec(query, ...params);
    const names = cursor.columnNames;
    const rows: T[] = [];
    for (const values of cursor.raw()) {
      const row: Row = {};
      for (let index = 0; index < names.length; index++) row[names[index] as string] = values[index] as SqlValue;
      rows.push(row as T);
    }
    this.written += cursor.rowsWritten;
    this.read += cursor.rowsRead;
    return rows;
  }

  one<T extends Row = Row>(query: string, ...params: SqlValue[]): T | undefined {
    return this.all<T>(query, ...params)[0];
  }

  run(query: string, ...params: SqlValue[]): number {
    const cursor = this.sql.exec(query, ...params);
    // Drained before its counts are read, so a statement that answers rows (RETURNING) counts them all.
    while (!cursor.next().done) {}
    const written = cursor.rowsWritten;
    this.written += written;
    this.read += cursor.rowsRead;
    return written;
  }

  /** Grows with every row a statement writes; compare two readings to tell whether a call wrote anything. */
  get rowsWritten(): number {
    return this.written;
  }

  /**
   * Grows with every row a statement reads (the cursor's `rowsRead`, the figure Cloudflare bills: rows a
   * statement scans count, not only those it answers); compare two readings to tell how much a call read.
   */
  get rowsRead(): number {
    return this.read;
  }

  /** All of `fn` lands or none of it does: a throw rolls every statement back. */
  transaction<T>(fn: () => T): T {
    return this.storage.transactionSync(fn);
  }

  get sizeBytes(): number {
    return this.sql.databaseSize;
  }
}
