// check.mjs opens Parquet files with DuckDB and Arrow IPC files with
// apache-arrow (JS), and prints, as one JSON array on stdout, what each reader
// sees: row count, column names and types, schema metadata and the rows.
//
//   node check.mjs out.parquet out.arrow ...
//
// Integers outside JavaScript's safe range are printed as strings; NaN and
// infinities as the strings "NaN", "Infinity", "-Infinity".
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';

const MAX_ROWS = 10000;

function jsonValue(v) {
  if (Array.isArray(v)) {
    return v.map(jsonValue);
  }
  if (typeof v === 'bigint') {
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  }
  if (typeof v === 'number' && !Number.isFinite(v)) {
    return String(v);
  }
  if (v === undefined) {
    return null;
  }
  return v;
}

function decode(blob) {
  return typeof blob === 'string' ? blob : Buffer.from(blob.bytes ?? blob).toString('utf8');
}

async function readParquet(conn, file) {
  const res = await conn.runAndReadAll('SELECT * FROM read_parquet($1)', [file]);
  const names = res.columnNames();
  const types = res.columnTypes().map((t) => t.toString());
  const rows = res.getRowsJS();
  const meta = {};
  const kv = await conn.runAndReadAll('SELECT key, value FROM parquet_kv_metadata($1)', [file]);
  for (const [k, v] of kv.getRowsJS()) {
    const key = decode(k);
    if (key !== 'ARROW:schema') {
      meta[key] = decode(v);
    }
  }
  return {
    file,
    reader: 'duckdb',
    rows: rows.length,
    columns: names.map((name, i) => ({ name, type: types[i] })),
    metadata: meta,
    data: rows.slice(0, MAX_ROWS).map((r) => r.map(jsonValue)),
  };
}

function readArrow(file) {
  const table = tableFromIPC(readFileSync(file));
  const fields = table.schema.fields;
  const data = [];
  for (let i = 0; i < Math.min(table.numRows, MAX_ROWS); i++) {
    data.push(fields.map((_, j) => jsonValue(table.getChildAt(j).get(i))));
  }
  return {
    file,
    reader: 'apache-arrow',
    rows: table.numRows,
    columns: fields.map((f) => ({ name: f.name, type: String(f.type) })),
    metadata: Object.fromEntries(table.schema.metadata),
    data,
  };
}

async function main(files) {
  if (files.length === 0) {
    console.error('usage: node check.mjs FILE.parquet|FILE.arrow ...');
    process.exit(2);
  }
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const out = [];
  try {
    for (const f of files) {
      if (f.endsWith('.parquet')) {
        out.push(await readParquet(conn, f));
      } else if (f.endsWith('.arrow') || f.endsWith('.arrows')) {
        out.push(readArrow(f));
      } else {
        throw new Error(`${f}: not a .parquet or .arrow file`);
      }
    }
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  console.log(JSON.stringify(out));
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`check.mjs: ${e.message}`);
  process.exit(1);
});
