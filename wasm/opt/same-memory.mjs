// Checks that two WebAssembly modules start with the same memory: the Go
// linker's lsp.wasm and the one served, after wasm/opt and wasm-opt
// (task build:wasm). Each is instantiated with imports that throw, which
// runs its data segments and start function and nothing of Go, and their
// exported memories must match byte for byte.
//
//	node wasm/opt/same-memory.mjs GO.wasm SERVED.wasm
import { readFile } from "node:fs/promises";

async function startMemory(path) {
  const module = await WebAssembly.compile(await readFile(path));
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== "function") {
      throw new Error(`${path}: import ${imp.module}.${imp.name} is a ${imp.kind}`);
    }
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = () => {
      throw new Error(`${path}: ${imp.module}.${imp.name} called while instantiating`);
    };
  }
  const instance = await WebAssembly.instantiate(module, imports);
  const mem = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory);
  if (!mem) {
    throw new Error(`${path}: no exported memory`);
  }
  return new Uint8Array(mem.buffer);
}

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: node same-memory.mjs A.wasm B.wasm");
  process.exit(2);
}
const [ma, mb] = await Promise.all([startMemory(a), startMemory(b)]);
if (ma.length !== mb.length) {
  console.error(`${a} and ${b} start with memories of ${ma.length} and ${mb.length} bytes`);
  process.exit(1);
}
for (let i = 0; i < ma.length; i++) {
  if (ma[i] !== mb[i]) {
    console.error(`${a} and ${b} start with different memory, first at byte ${i}`);
    process.exit(1);
  }
}
