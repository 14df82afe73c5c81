// Runs the Khronos glTF validator on each file given and prints one summary line per file
// (and every issue with --verbose). Exits 1 if any file has an error, 2 on bad usage.
// Install once with `npm ci` in this folder.
"use strict";
const fs = require("fs");
const path = require("path");
const validator = require("gltf-validator");

async function validate(file, verbose) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 200,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        const full = path.resolve(path.dirname(file), decodeURIComponent(uri));
        fs.readFile(full, (err, data) => (err ? reject(err.toString()) : resolve(data)));
      }),
  });
  const i = report.issues;
  console.log(
    `${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints` +
      ` (validator ${report.validatorVersion})`
  );
  if (verbose || i.numErrors > 0) {
    for (const m of i.messages) {
      console.log(`  [${["error", "warning", "info", "hint"][m.severity]}] ${m.code} ${m.pointer || ""}: ${m.message}`);
    }
  }
  return i.numErrors;
}

async function main() {
  const args = process.argv.slice(2);
  const verbose = args.includes("--verbose");
  const files = args.filter((a) => a !== "--verbose");
  if (files.length === 0) {
    console.error("usage: node validate.js [--verbose] FILE.glb|FILE.gltf ...");
    process.exit(2);
  }
  let errors = 0;
  for (const f of files) {
    try {
      errors += await validate(f, verbose);
    } catch (e) {
      console.log(`${f}: the validator could not read the file: ${e}`);
      errors += 1;
    }
  }
  process.exit(errors > 0 ? 1 : 0);
}

main();
