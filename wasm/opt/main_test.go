package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const (
	testHeader    = 0x1000
	testTable     = 0x2000
	testPclntable = 0x2800
	testModule    = 0x3000
	testMinPC     = 0x1000 << 16
	testFuncs     = 3
	testEntry0    = 0x1000
)

// testMemory lays out what the runtime's lookup needs the way Go's linker
// does for wasm: a pcHeader, a moduledata pointing at it, at a findfunctab
// of testFuncs functions with other data right against it on both sides,
// and at a pclntable: ftab, then each function's _func.
func testMemory() ([]byte, tables) {
	mem := make([]byte, 0x4000)
	binary.LittleEndian.PutUint32(mem[testHeader:], pcHeaderMagic)
	mem[testHeader+6], mem[testHeader+7] = 1, 8
	binary.LittleEndian.PutUint64(mem[testHeader+pcHeaderNfunc:], testFuncs)
	binary.LittleEndian.PutUint64(mem[testHeader+pcHeaderFuncnameOffset:], 72)
	copy(mem[testHeader+72:], "main.main\x00main.f\x00main.g\x00")

	span := uint64(testFuncs-1)<<16 + 9 // the last function is 9 bytes long
	put := func(at int, v uint64) { binary.LittleEndian.PutUint64(mem[testModule+at:], v) }
	put(0, testHeader)
	put(moduleFuncnametab, testHeader+72)
	put(moduleFuncnametab+8, 24)
	put(moduleFuncnametab+16, 24)
	put(modulePclntable, testPclntable)
	put(modulePclntable+8, 0x200)
	put(modulePclntable+16, 0x200)
	put(moduleFtab, testPclntable)
	put(moduleFtab+8, testFuncs+1)
	put(moduleFtab+16, testFuncs+1)
	put(moduleFindfunctab, testTable)
	put(moduleMinPC, testMinPC)
	put(moduleMaxPC, testMinPC+span)

	t := tables{find: testTable, buckets: uint32((span + 4095) / 4096), ftab: testPclntable, pclntable: testPclntable, funcs: testFuncs, entry0: testEntry0}
	t.size = 4*t.buckets + uint32((span+255)/256)
	for b := uint32(0); b < t.buckets; b++ {
		binary.LittleEndian.PutUint32(mem[t.find+20*b:], b/16)
	}
	copy(mem[t.find-4:], "data")
	copy(mem[t.find+t.size:], "more")
	// ftab, its end entry, and _funcs of 48 bytes: the entry offset, the
	// name's offset and other fields.
	for i := uint32(0); i <= testFuncs; i++ {
		at := t.ftab + 8*i
		binary.LittleEndian.PutUint32(mem[at:], testEntry0+i)
		if i == testFuncs {
			break
		}
		off := 8*(testFuncs+1) + 48*i
		binary.LittleEndian.PutUint32(mem[at+4:], off)
		fn := t.pclntable + off
		binary.LittleEndian.PutUint32(mem[fn:], testEntry0+i)
		binary.LittleEndian.PutUint32(mem[fn+4:], 10*i)
		binary.LittleEndian.PutUint32(mem[fn+16:], 0x100+i)
	}
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
// segments, then its start function run by runStart.
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
	if err := runStart(code[1], mem); err != nil {
		t.Fatal(err)
	}
	return mem
}

// runStart runs a code entry made of the instructions start uses: one i32
// local, loops, br_if, i32 constants, arithmetic, loads and stores.
func runStart(entry, mem []byte) error {
	r := reader{b: entry}
	r.u32() // size
	if string(r.bytes(3)) != "\x01\x01\x7f" {
		return errors.New("want one i32 local")
	}
	code := r.b
	var local uint32
	var stack []uint32
	var loops []int
	pop := func() uint32 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return v
	}
	for steps := 0; steps < 1e6; steps++ {
		op := r.byte()
		if r.err != nil {
			return r.err
		}
		switch op {
		case 0x03: // loop
			r.byte()
			loops = append(loops, len(code)-len(r.b))
		case 0x0b: // end
			if len(loops) == 0 {
				if len(stack) != 0 || len(r.b) != 0 {
					return errors.New("values or code left at the end")
				}
				return nil
			}
			loops = loops[:len(loops)-1]
		case 0x0d: // br_if 0
			if r.u32() != 0 {
				return errors.New("br_if to an outer block")
			}
			if pop() != 0 {
				r.b = code[loops[len(loops)-1]:]
			}
		case 0x20:
			r.u32()
			stack = append(stack, local)
		case 0x21:
			r.u32()
			local = pop()
		case 0x22:
			r.u32()
			local = stack[len(stack)-1]
		case 0x41:
			stack = append(stack, uint32(r.i32()))
		case 0x6a, 0x6c, 0x76, 0x49:
			b, a := pop(), pop()
			stack = append(stack, map[byte]func() uint32{
				0x6a: func() uint32 { return a + b },
				0x6c: func() uint32 { return a * b },
				0x76: func() uint32 { return a >> (b & 31) },
				0x49: func() uint32 {
					if a < b {
						return 1
					}
					return 0
				},
			}[op]())
		case 0x28: // i32.load
			r.u32()
			off := r.u32()
			stack = append(stack, binary.LittleEndian.Uint32(mem[pop()+off:]))
		case 0x36: // i32.store
			r.u32()
			off := r.u32()
			v, at := pop(), pop()
			binary.LittleEndian.PutUint32(mem[at+off:], v)
		default:
			return fmt.Errorf("instruction %#x", op)
		}
	}
	return errors.New("does not end")
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
		if end > table.find && sg.offset < table.find+table.size {
			t.Errorf("segment [%#x, %#x) still writes findfunctab [%#x, %#x)", sg.offset, end, table.find, table.find+table.size)
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
			mem[table.find+20*17] = 7
			return testWasm(mem)
		}},
		{"an offset", "not one function per 16 buckets", func() []byte {
			mem, table := testMemory()
			mem[table.find+20*5+4] = 1
			return testWasm(mem)
		}},
		{"an entry offset in ftab", "function 2's entry offset", func() []byte {
			mem, table := testMemory()
			mem[table.ftab+8*2]++
			return testWasm(mem)
		}},
		{"an entry offset in a _func", "function 1's entry offset", func() []byte {
			mem, table := testMemory()
			mem[table.pclntable+binary.LittleEndian.Uint32(mem[table.ftab+8+4:])]++
			return testWasm(mem)
		}},
		{"a function too many", "ftab does not have an entry per function", func() []byte {
			mem, _ := testMemory()
			mem[testHeader+pcHeaderNfunc]++
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
