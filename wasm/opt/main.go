// Command opt rewrites lsp.wasm after Binaryen's wasm-opt (task
// build:wasm) so that it starts with the same memory from fewer bytes:
//
//	go run ./wasm/opt IN.wasm OUT.wasm
//
// The runtime finds the function of a PC through findfunctab, a table of
// 20-byte buckets (a function index and 16 sub-bucket offsets), one bucket
// per 4096 bytes of PC. On wasm a PC is a function's index shifted left by
// 16, so every function spans 16 buckets, bucket b holds index b/16 and
// every offset is zero: a regular table the linker writes as one data
// segment per bucket, about 435 KB of lsp.wasm's 3.8 MB and 78 KB of its
// gzip. opt checks that the table is exactly that, drops it from the data
// and adds a start function that stores the same indexes when the module
// is instantiated, before anything of Go runs. A table that is not exactly
// that (another linker, another layout) is an error, never a guess.
//
// The rest of the data is then written again as few segments, split only
// at mergeGap zero bytes or more. The linker splits at 8 (and wasm-opt
// much the same) to keep the raw file small, but each segment's header
// holds its address, which compresses badly, while zeros cost next to
// nothing once compressed: about 28 KB raw more, 13 KB gzip and 15 KB
// Brotli less.
//
// wasm/opt/same-memory.mjs then checks that the module served starts with
// the memory the Go linker's module starts with.
package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./wasm/opt IN.wasm OUT.wasm")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err == nil {
		var out []byte
		out, err = rewrite(in)
		if err == nil {
			err = os.WriteFile(os.Args[2], out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "opt:", err)
		os.Exit(1)
	}
}

const (
	// pcHeaderMagic starts the runtime's pcHeader (Go 1.20 and later),
	// followed by two zero bytes, the minimum instruction size (1 on
	// wasm) and the pointer size (8).
	pcHeaderMagic = 0xfffffff1
	// Offsets in the pcHeader and in runtime.moduledata (runtime/symtab.go).
	pcHeaderFuncnameOffset = 32
	moduleFuncnametab      = 8
	moduleFindfunctab      = 8 + 6*24
	moduleMinPC            = moduleFindfunctab + 8
	moduleMaxPC            = moduleFindfunctab + 16

	bucketPCs      = 4096 // abi.FuncTabBucketSize on wasm
	subbuckets     = 16
	bucketSize     = 4 + subbuckets
	bucketsPerFunc = 1 << 16 / bucketPCs // a wasm PC is the function index << 16

	// mergeGap is the shortest run of zeros that splits two segments.
	mergeGap = 256
)

// funcTable is where findfunctab lies in memory and how many buckets it
// has; the last one may hold fewer than 16 sub-bucket offsets.
type funcTable struct {
	addr, buckets, size uint32
}

// locate finds findfunctab through the runtime's first (and on wasm only)
// moduledata, the one that points at the pcHeader.
func locate(mem []byte) (funcTable, error) {
	var sig [8]byte
	binary.LittleEndian.PutUint32(sig[:], pcHeaderMagic)
	sig[6], sig[7] = 1, 8
	// Memory past the last data segment is zero.
	u64 := func(at uint64) uint64 {
		var b [8]byte
		if at < uint64(len(mem)) {
			copy(b[:], mem[at:])
		}
		return binary.LittleEndian.Uint64(b[:])
	}
	var found []funcTable
	for h := 0; h+len(sig) <= len(mem); h += 8 {
		if string(mem[h:h+len(sig)]) != string(sig[:]) {
			continue
		}
		names := uint64(h) + u64(uint64(h)+pcHeaderFuncnameOffset)
		for m := uint64(0); m+8 <= uint64(len(mem)); m += 8 {
			if u64(m) != uint64(h) || u64(m+moduleFuncnametab) != names {
				continue
			}
			addr, minPC, maxPC := u64(m+moduleFindfunctab), u64(m+moduleMinPC), u64(m+moduleMaxPC)
			if maxPC <= minPC {
				return funcTable{}, errors.New("findfunctab: moduledata has no text")
			}
			span := maxPC - minPC
			buckets := (span + bucketPCs - 1) / bucketPCs
			subs := (span + bucketPCs/subbuckets - 1) / (bucketPCs / subbuckets)
			size := 4*buckets + subs
			if addr+size > uint64(len(mem)) || addr > 0xffffffff {
				return funcTable{}, errors.New("findfunctab: outside the module's data")
			}
			found = append(found, funcTable{uint32(addr), uint32(buckets), uint32(size)})
		}
	}
	if len(found) != 1 {
		return funcTable{}, fmt.Errorf("findfunctab: %d runtime module data found, want 1", len(found))
	}
	return found[0], nil
}

// expected is the table as the linker writes it for wasm: bucket b holds
// function index b/16 and zero offsets.
func (t funcTable) expected() []byte {
	want := make([]byte, t.size)
	for b := uint32(0); b < t.buckets; b++ {
		binary.LittleEndian.PutUint32(want[b*bucketSize:], b/bucketsPerFunc)
	}
	return want
}

// fill is the body of the start function that stores the indexes: for b
// from 0 while b < buckets, the i32 b>>4 at addr + 20*b.
func (t funcTable) fill() []byte {
	body := []byte{
		0x01, 0x01, 0x7f, // one local, b i32
		0x03, 0x40, // loop
		0x20, 0x00, 0x41, bucketSize, 0x6c, // b * 20
		0x20, 0x00, 0x41, 0x04, 0x76, // b >> 4
		0x36, 0x02, // i32.store align=4 offset=addr
	}
	body = appendU32(body, t.addr)
	body = append(body,
		0x20, 0x00, 0x41, 0x01, 0x6a, 0x22, 0x00, // b = b + 1
		0x41) // i32.const buckets
	body = appendI32(body, int32(t.buckets))
	body = append(body,
		0x49,       // i32.lt_u
		0x0d, 0x00, // br_if loop
		0x0b, // end loop
		0x0b) // end function
	return append(appendU32(nil, uint32(len(body))), body...) // a code entry: size, then body
}

// Its instruction bytes assume that the shift and the bucket size fit the
// encodings above.
var _ = [1]int{}[bucketsPerFunc-16+bucketSize-20]

func rewrite(module []byte) ([]byte, error) {
	secs, err := parseModule(module)
	if err != nil {
		return nil, err
	}
	find := func(id byte) int {
		for i, s := range secs {
			if s.id == id {
				return i
			}
		}
		return -1
	}
	if find(secStart) >= 0 {
		return nil, errors.New("the module has a start function already")
	}
	iType, iFunc, iCode, iData := find(secType), find(secFunction), find(secCode), find(secData)
	if iType < 0 || iFunc < 0 || iCode < 0 || iData < 0 {
		return nil, errFormat
	}
	segs, err := parseData(secs[iData].data)
	if err != nil {
		return nil, err
	}
	var end uint64
	for _, s := range segs {
		end = max(end, uint64(s.offset)+uint64(len(s.data)))
	}
	mem := make([]byte, end)
	for _, s := range segs {
		copy(mem[s.offset:], s.data)
	}
	t, err := locate(mem)
	if err != nil {
		return nil, err
	}
	table := mem[t.addr : t.addr+t.size]
	if string(table) != string(t.expected()) {
		return nil, errors.New("findfunctab is not one function per 16 buckets with zero offsets")
	}
	clear(table)
	segs = segments(mem, mergeGap)
	secs[iData].data = encodeData(segs)
	if i := find(secDataCount); i >= 0 {
		secs[i].data = appendU32(nil, uint32(len(segs)))
	}

	// A () -> () function type, the function and its code.
	types, err := vector(secs[iType].data, func(r *reader) {
		if r.byte() != 0x60 {
			r.fail()
		}
		r.bytes(r.u32())
		r.bytes(r.u32())
	})
	if err != nil {
		return nil, err
	}
	typ := -1
	for i, ty := range types {
		if string(ty) == "\x60\x00\x00" {
			typ = i
			break
		}
	}
	if typ < 0 {
		typ = len(types)
		types = append(types, []byte{0x60, 0x00, 0x00})
		secs[iType].data = encodeVector(types)
	}
	funcs, err := vector(secs[iFunc].data, func(r *reader) { r.u32() })
	if err != nil {
		return nil, err
	}
	codes, err := vector(secs[iCode].data, func(r *reader) { r.bytes(r.u32()) })
	if err != nil || len(codes) != len(funcs) {
		return nil, errFormat
	}
	var imported uint32
	if i := find(secImport); i >= 0 {
		if imported, err = importedFuncs(secs[i].data); err != nil {
			return nil, err
		}
	}
	index := imported + uint32(len(funcs))
	secs[iFunc].data = encodeVector(append(funcs, appendU32(nil, uint32(typ))))
	secs[iCode].data = encodeVector(append(codes, t.fill()))

	// The start section comes after the exports, before the elements,
	// the data count, the code and the data.
	at := len(secs)
	for i, s := range secs {
		if s.id == secElement || s.id == secDataCount || s.id == secCode || s.id == secData {
			at = i
			break
		}
	}
	start := section{secStart, appendU32(nil, index)}
	secs = append(secs[:at], append([]section{start}, secs[at:]...)...)
	return encodeModule(secs), nil
}

// segments splits memory into data segments: zeros before the first
// byte and after the last are left out, and so is every run of gap zeros
// or more, which ends one segment and starts the next.
func segments(mem []byte, gap int) []segment {
	var segs []segment
	for i := 0; i < len(mem); {
		for i < len(mem) && mem[i] == 0 {
			i++
		}
		start, zeros := i, 0
		for ; i < len(mem) && zeros < gap; i++ {
			if mem[i] == 0 {
				zeros++
			} else {
				zeros = 0
			}
		}
		if end := i - zeros; end > start {
			segs = append(segs, segment{uint32(start), mem[start:end]})
		}
	}
	return segs
}
