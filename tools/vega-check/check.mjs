// check.mjs compiles Vega-Lite specs with the vega-lite package and renders
// the compiled Vega spec to SVG with vega (headless, no canvas), and prints
// one JSON array on stdout with, per file: the $schema, the compiler's and
// the view's warnings, the SVG's size and the number of marks drawn.
//
//   node check.mjs [--svg-dir DIR] chart.vl.json ...
//
// With --svg-dir each rendered SVG is written to DIR/<base>.svg. The exit
// status is 1 when a spec does not parse, compile or render; warnings are
// reported, not fatal (the caller decides).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vl from 'vega-lite';
import * as vega from 'vega';

function collector() {
  const msgs = [];
  const push = (level) => (...a) => msgs.push(`${level}: ${a.map(String).join(' ')}`);
  return {
    msgs,
    logger: {
      level(l) { return l === undefined ? vega.Warn : this; },
      error: push('error'),
      warn: push('warn'),
      info() { return this; },
      debug() { return this; },
    },
  };
}

async function checkOne(file, svgDir) {
  const spec = JSON.parse(readFileSync(file, 'utf8'));
  const c = collector();
  const compiled = vl.compile(spec, { logger: c.logger });
  const view = new vega.View(vega.parse(compiled.spec), { renderer: 'none', logLevel: vega.Warn });
  view.logger(c.logger);
  const svg = await view.toSVG();
  view.finalize();
  if (svgDir) {
    mkdirSync(svgDir, { recursive: true });
    writeFileSync(join(svgDir, basename(file).replace(/\.json$/, '') + '.svg'), svg);
  }
  const count = (re) => (svg.match(re) || []).length;
  return {
    file,
    schema: spec.$schema ?? '',
    warnings: c.msgs,
    svgBytes: svg.length,
    paths: count(/<path/g),
    texts: count(/<text/g),
    svgStart: svg.slice(0, 5),
  };
}

async function main(argv) {
  let svgDir = '';
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--svg-dir') {
      svgDir = argv[++i];
    } else {
      files.push(argv[i]);
    }
  }
  if (files.length === 0) {
    console.error('usage: node check.mjs [--svg-dir DIR] FILE.json ...');
    process.exit(2);
  }
  const out = [];
  for (const f of files) {
    try {
      out.push(await checkOne(f, svgDir));
    } catch (e) {
      console.error(`check.mjs: ${f}: ${e.message}`);
      process.exit(1);
    }
  }
  console.log(JSON.stringify(out));
}

main(process.argv.slice(2));
