/**
 * Typed, synchronous helpers over Durable Object SQLite. Only stores (`*.store.ts`) and this folder
 * issue SQL. Cursors are always consumed before returning, so no caller can hold one across an await.
 * Within one call (`beginCall` … `endCall`) a read statement asked again answers from its first reading
 * until the call writes: the parts of an answer each read what they need without paying twice for it.
 */

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

/**
 * A call's statement cache keeps answers of at most this many rows: the point reads and short pages a
 * call repeats (its focus, a task's steps, a branch's chain), not a bulk page it walks once.
 */
const MAX_CACHED_ROWS_PER_STATEMENT = 200;
/** Rows a call's cache holds at most, so a call that reads many small pages keeps its memory bounded. */
const MAX_CACHED_ROWS_PER_CALL = 2_000;

/** Statements whose answers the call cache may keep: reads; a write (even with RETURNING) always runs. */
const READ_STATEMENT = /^\s*(SELECT|WITH)\b/i;

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

  /**
   * The running call's answers of read statements, by statement and parameters (see `beginCall`); null
   * between calls. Valid while the handle has written nothing since they were read (`cacheWritten`).
   */
  private callCache: Map<string, Row[]> | null = null;
  private cacheWritten = 0;
  private cachedRows = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
  ) {}

  /**
   * Rows are read as arrays and turned into objects here: workerd builds row objects in C++ through
   * the V8 API, which costs about twice as much as this loop (measured on 50 wide rows).
   */
  all<T extends Row = Row>(query: string, ...params: SqlValue[]): T[] {
    const key = this.cacheKeyOf(query, params);
    if (key !== undefined) {
      const kept = this.callCache?.get(key);
      // A copy of the list (a caller may sort it); rows are never changed by their readers.
      if (kept !== undefined) return kept.slice() as T[];
    }
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
    if (key !== undefined && cursor.rowsWritten === 0) this.keep(key, rows);
    return rows;
  }

  /**
   * From here to `endCall`, a read statement asked again with the same parameters answers what it
   * answered the first time, as long as the call has written nothing since: a call composes its answer
   * from parts that each read what they need (the focus, a task's steps, a branch's chain), and the
   * second reading of the same rows costs a statement for nothing. Any write empties the cache.
   */
  beginCall(): void {
    this.callCache = new Map();
    this.cacheWritten = this.written;
    this.cachedRows = 0;
  }

  endCall(): void {
    this.callCache = null;
    this.cachedRows = 0;
  }

  /** The cache key of a read statement while a call runs (undefined: not cached); drops what a write made stale. */
  private cacheKeyOf(query: string, params: SqlValue[]): string | undefined {
    if (this.callCache === null || !READ_STATEMENT.test(query)) return undefined;
    if (this.cacheWritten !== this.written) {
      this.callCache.clear();
      this.cachedRows = 0;
      this.cacheWritten = this.written;
    }
    return `${JSON.stringify(params)}\u0000${query}`;
  }

  private keep(key: string, rows: Row[]): void {
    if (this.callCache === null || rows.length > MAX_CACHED_ROWS_PER_STATEMENT) return;
    if (this.cachedRows + rows.length > MAX_CACHED_ROWS_PER_CALL) return;
    this.callCache.set(key, rows.slice());
    this.cachedRows += rows.length;
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
    try {
      return this.storage.transactionSync(fn);
    } catch (error) {
      // Rolled back: what the call's cache read inside it may be gone.
      this.callCache?.clear();
      this.cachedRows = 0;
      throw error;
    }
  }

  get sizeBytes(): number {
    return this.sql.databaseSize;
  }
}
