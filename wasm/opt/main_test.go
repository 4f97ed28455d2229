package main

import (
	"encoding/binary"
	"strings"
	"testing"
)

const (
	testHeader = 0x1000
	testTable  = 0x2000
	testModule = 0x3000
	testMinPC  = 0x1000 << 16
	testFuncs  = 3
)

// testMemory lays out what the runtime's lookup needs the way Go's linker
// does for wasm: a pcHeader, a moduledata pointing at it and at a
// findfunctab of testFuncs functions, with other data right against the
// table on both sides.
func testMemory() ([]byte, funcTable) {
	mem := make([]byte, 0x4000)
	binary.LittleEndian.PutUint32(mem[testHeader:], pcHeaderMagic)
	mem[testHeader+6], mem[testHeader+7] = 1, 8
	binary.LittleEndian.PutUint64(mem[testHeader+8:], testFuncs)
	binary.LittleEndian.PutUint64(mem[testHeader+pcHeaderFuncnameOffset:], 72)
	copy(mem[testHeader+72:], "main.main\x00main.f\x00main.g\x00")

	span := uint64(testFuncs-1)<<16 + 9 // the last function is 9 bytes long
	put := func(at int, v uint64) { binary.LittleEndian.PutUint64(mem[testModule+at:], v) }
	put(0, testHeader)
	put(moduleFuncnametab, testHeader+72)
	put(moduleFuncnametab+8, 24)
	put(moduleFuncnametab+16, 24)
	put(moduleFindfunctab, testTable)
	put(moduleMinPC, testMinPC)
	put(moduleMaxPC, testMinPC+span)

	t := funcTable{addr: testTable, buckets: uint32((span + 4095) / 4096)}
	t.size = 4*t.buckets + uint32((span+255)/256)
	copy(mem[t.addr:], t.expected())
	copy(mem[t.addr-4:], "data")
	copy(mem[t.addr+t.size:], "more")
	return mem, t
}

// testWasm is a module like Go's: one imported function, one of its own,
// an exported memory and the data segments of mem, split where the linker
// splits them (8 zeros); extra sections go before the code.
func testWasm(mem []byte, extra ...section) []byte {
	vec := func(items ...[]byte) []byte { return encodeVector(items) }
	secs := []section{
		{secType, vec([]byte{0x60, 0x01, 0x7f, 0x01, 0x7f})},
		{secImport, vec([]byte{4, 'g', 'o', 'j', 's', 1, 'f', 0x00, 0x00})},
		{secFunction, vec([]byte{0x00})},
		{5, vec([]byte{0x00, 0x01})}, // memory: one page
		{secExport, vec([]byte{3, 'm', 'e', 'm', 0x02, 0x00})},
	}
	secs = append(secs, extra...)
	secs = append(secs,
		section{secCode, vec([]byte{0x04, 0x00, 0x41, 0x00, 0x0b})}, // i32.const 0
		section{secData, encodeData(segments(mem, 8))},
	)
	return encodeModule(secs)
}

// startMemory is the memory a rewritten module starts with: its data
// segments, then the start function's stores, read back from its code.
func startMemory(t *testing.T, module []byte) []byte {
	t.Helper()
	secs, err := parseModule(module)
	if err != nil {
		t.Fatal(err)
	}
	mem := make([]byte, 0x4000)
	var code [][]byte
	start := -1
	for _, s := range secs {
		switch s.id {
		case secData:
			segs, err := parseData(s.data)
			if err != nil {
				t.Fatal(err)
			}
			for _, sg := range segs {
				copy(mem[sg.offset:], sg.data)
			}
		case secCode:
			if code, err = vector(s.data, func(r *reader) { r.bytes(r.u32()) }); err != nil {
				t.Fatal(err)
			}
		case secStart:
			r := reader{b: s.data}
			start = int(r.u32())
		}
	}
	if start != 2 { // after the import and the module's own function
		t.Fatalf("start function %d, want 2", start)
	}
	// The fill's shape is fixed but for the address and the count; a
	// reader of those two stands in for running it (same_memory_test.go
	// runs it in Node).
	r := reader{b: code[1]}
	r.u32()
	head := r.bytes(17)
	addr := r.u32()
	mid := r.bytes(8)
	count := r.i32()
	tail := r.bytes(5)
	if r.err != nil || len(r.b) != 0 || string(mid) != "\x20\x00\x41\x01\x6a\x22\x00\x41" || string(tail) != "\x49\x0d\x00\x0b\x0b" || head[15] != 0x36 {
		t.Fatalf("unexpected fill % x", code[1])
	}
	for b := uint32(0); b < uint32(count); b++ {
		binary.LittleEndian.PutUint32(mem[addr+20*b:], b>>4)
	}
	return mem
}

func TestRewriteKeepsTheStartMemory(t *testing.T) {
	mem, table := testMemory()
	// As wasm-opt writes it, with a data count.
	count := appendU32(nil, uint32(len(segments(mem, 8))))
	out, err := rewrite(testWasm(mem, section{secDataCount, count}))
	if err != nil {
		t.Fatal(err)
	}
	if got := startMemory(t, out); string(got) != string(mem) {
		t.Fatal("the rewritten module starts with another memory")
	}
	secs, _ := parseModule(out)
	var order []byte
	var segs []segment
	for _, s := range secs {
		order = append(order, s.id)
		if s.id == secData {
			segs, _ = parseData(s.data)
		}
	}
	if string(order) != string([]byte{secType, secImport, secFunction, 5, secExport, secStart, secDataCount, secCode, secData}) {
		t.Errorf("sections in order %v", order)
	}
	for i, s := range secs {
		if s.id == secDataCount && string(s.data) != string(appendU32(nil, uint32(len(segs)))) {
			t.Errorf("data count % x, %d segments", secs[i].data, len(segs))
		}
	}
	for i, sg := range segs {
		end := sg.offset + uint32(len(sg.data))
		if end > table.addr && sg.offset < table.addr+table.size {
			t.Errorf("segment [%#x, %#x) still writes the table [%#x, %#x)", sg.offset, end, table.addr, table.addr+table.size)
		}
		if i > 0 {
			prev := segs[i-1]
			if gap := sg.offset - prev.offset - uint32(len(prev.data)); gap < mergeGap {
				t.Errorf("segments %d and %d are %d zeros apart", i-1, i, gap)
			}
		}
	}
}

func TestRewriteRefuses(t *testing.T) {
	for _, c := range []struct {
		name, want string
		wasm       func() []byte
	}{
		{"another table", "not one function per 16 buckets", func() []byte {
			mem, table := testMemory()
			mem[table.addr+20*17] = 7
			return testWasm(mem)
		}},
		{"an offset", "not one function per 16 buckets", func() []byte {
			mem, table := testMemory()
			mem[table.addr+20*5+4] = 1
			return testWasm(mem)
		}},
		{"no moduledata", "0 runtime module data", func() []byte {
			mem, _ := testMemory()
			clear(mem[testModule : testModule+8])
			return testWasm(mem)
		}},
		{"a start function", "start function already", func() []byte {
			mem, _ := testMemory()
			return testWasm(mem, section{secStart, []byte{0x01}})
		}},
		{"not wasm", "not a WebAssembly module", func() []byte { return []byte("\x00asm\x02\x00\x00\x00") }},
	} {
		_, err := rewrite(c.wasm())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

func TestLEB128(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, -1, -64, -65, 1 << 20, 1<<31 - 1, -1 << 31} {
		r := reader{b: appendI32(nil, v)}
		if got := r.i32(); got != v || r.err != nil || len(r.b) != 0 {
			t.Errorf("i32 %d: read %d, %v", v, got, r.err)
		}
	}
	for _, v := range []uint32{0, 127, 128, 1<<32 - 1} {
		r := reader{b: appendU32(nil, v)}
		if got := r.u32(); got != v || r.err != nil || len(r.b) != 0 {
			t.Errorf("u32 %d: read %d, %v", v, got, r.err)
		}
	}
}
