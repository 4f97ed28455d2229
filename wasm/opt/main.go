// Command opt rewrites lsp.wasm after Binaryen's wasm-opt (task
// build:wasm) so that it starts with the same memory from fewer bytes:
//
//	go run ./wasm/opt IN.wasm OUT.wasm
//
// Two of the runtime's lookup tables are regular on wasm, where a PC is a
// function's index shifted left by 16 and a function's entry offset is its
// number (4096 plus its index):
//
//   - findfunctab, which finds the function of a PC: one 20-byte bucket (a
//     function index and 16 sub-bucket offsets) per 4096 PCs, so every
//     function spans 16 buckets, bucket b holds index b/16 and every
//     offset is zero. The linker writes it as one data segment per
//     bucket: about 435 KB of lsp.wasm's 3.8 MB and 78 KB of its gzip.
//   - the entry offsets, in ftab (an entry offset and the offset of the
//     function's _func, per function) and at the start of each _func:
//     numbers that count up one by one, which compress badly where they
//     sit, between other fields (13 KB of the gzip).
//
// opt checks that the tables are exactly that, takes them out of the data
// and adds a start function that stores them when the module is
// instantiated, before anything of Go runs. Tables that are not exactly
// that (another linker, another layout) are an error, never a guess.
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
	// Offsets in the pcHeader and in runtime.moduledata (runtime/symtab.go)
	// with 8-byte pointers and 24-byte slices.
	pcHeaderNfunc          = 8
	pcHeaderFuncnameOffset = 32
	moduleFuncnametab      = 8
	modulePclntable        = 8 + 4*24
	moduleFtab             = 8 + 5*24
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

// tables is where the runtime's lookup tables lie in memory.
type tables struct {
	// findfunctab and its buckets; the last bucket may hold fewer than
	// 16 sub-bucket offsets.
	find, buckets, size uint32
	// ftab (pairs of an entry offset and the offset of the function's
	// _func in pclntable, then one end entry) and pclntable.
	ftab, pclntable uint32
	// funcs is the number of functions; entry0 is the first one's entry
	// offset.
	funcs, entry0 uint32
}

// locate finds the tables through the runtime's first (and on wasm only)
// moduledata, the one that points at the pcHeader.
func locate(mem []byte) (tables, error) {
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
	var found []uint64
	header := uint64(0)
	for h := 0; h+len(sig) <= len(mem); h += 8 {
		if string(mem[h:h+len(sig)]) != string(sig[:]) {
			continue
		}
		names := uint64(h) + u64(uint64(h)+pcHeaderFuncnameOffset)
		for m := uint64(0); m+8 <= uint64(len(mem)); m += 8 {
			if u64(m) == uint64(h) && u64(m+moduleFuncnametab) == names {
				found = append(found, m)
				header = uint64(h)
			}
		}
	}
	if len(found) != 1 {
		return tables{}, fmt.Errorf("%d runtime module data found, want 1", len(found))
	}
	m := found[0]
	minPC, maxPC := u64(m+moduleMinPC), u64(m+moduleMaxPC)
	if maxPC <= minPC {
		return tables{}, errors.New("moduledata has no text")
	}
	span := maxPC - minPC
	buckets := (span + bucketPCs - 1) / bucketPCs
	subs := (span + bucketPCs/subbuckets - 1) / (bucketPCs / subbuckets)
	funcs := u64(header + pcHeaderNfunc)
	t := tables{
		find: uint32(u64(m + moduleFindfunctab)), buckets: uint32(buckets), size: uint32(4*buckets + subs),
		ftab: uint32(u64(m + moduleFtab)), pclntable: uint32(u64(m + modulePclntable)),
		funcs: uint32(funcs),
	}
	end := uint64(len(mem))
	switch {
	case uint64(t.find) != u64(m+moduleFindfunctab) || uint64(t.find)+uint64(t.size) > end:
		return tables{}, errors.New("findfunctab is outside the module's data")
	case u64(m+moduleFtab+8) != funcs+1 || funcs == 0 || funcs > 1<<24:
		return tables{}, errors.New("ftab does not have an entry per function and an end")
	case uint64(t.ftab) != u64(m+moduleFtab) || uint64(t.ftab)+8*(funcs+1) > end:
		return tables{}, errors.New("ftab is outside the module's data")
	case uint64(t.pclntable) != u64(m+modulePclntable) || uint64(t.pclntable) > end:
		return tables{}, errors.New("pclntable is outside the module's data")
	}
	t.entry0 = binary.LittleEndian.Uint32(mem[t.ftab:])
	return t, nil
}

// check holds that the tables are what start stores: findfunctab's
// bucket b holds function index b/16 and zero offsets (a wasm PC is the
// function's index shifted left by 16: 16 buckets of 4096 PCs), and the
// entry offset of function i, in ftab and at the start of its _func, is
// entry0 + i (on wasm the function's number: 4096 plus its index).
func (t tables) check(mem []byte) error {
	want := make([]byte, t.size)
	for b := uint32(0); b < t.buckets; b++ {
		binary.LittleEndian.PutUint32(want[b*bucketSize:], b/bucketsPerFunc)
	}
	if string(mem[t.find:t.find+t.size]) != string(want) {
		return errors.New("findfunctab is not one function per 16 buckets with zero offsets")
	}
	if t.entry0 > 1<<30 {
		return errors.New("ftab's first entry offset is out of range")
	}
	for i := uint32(0); i < t.funcs; i++ {
		at := t.ftab + 8*i
		fn := uint64(t.pclntable) + uint64(binary.LittleEndian.Uint32(mem[at+4:]))
		if binary.LittleEndian.Uint32(mem[at:]) != t.entry0+i || fn+4 > uint64(len(mem)) ||
			binary.LittleEndian.Uint32(mem[fn:]) != t.entry0+i {
			return fmt.Errorf("function %d's entry offset is not %d", i, t.entry0+i)
		}
	}
	return nil
}

// clear zeros what start stores.
func (t tables) clear(mem []byte) {
	clear(mem[t.find : t.find+t.size])
	for i := uint32(0); i < t.funcs; i++ {
		at := t.ftab + 8*i
		fn := t.pclntable + binary.LittleEndian.Uint32(mem[at+4:])
		clear(mem[at : at+4])
		clear(mem[fn : fn+4])
	}
}

// start is the code entry of the start function:
//
//	for b := 0; b < buckets; b++ { findfunctab[20*b] = b >> 4 }
//	for i := 0; i < funcs; i++ { ftab[8*i] = entry0 + i; pclntable[ftab[8*i+4]] = entry0 + i }
func (t tables) start() []byte {
	body := []byte{
		0x01, 0x01, 0x7f, // one local, b or i: i32
		0x03, 0x40, // loop
		0x20, 0x00, 0x41, bucketSize, 0x6c, // b * 20
		0x20, 0x00, 0x41, 0x04, 0x76, // b >> 4
		0x36, 0x02, // i32.store align=4 offset=findfunctab
	}
	body = appendU32(body, t.find)
	body = append(body, 0x20, 0x00, 0x41, 0x01, 0x6a, 0x22, 0x00) // b = b + 1
	body = append(body, 0x41)                                     // i32.const buckets
	body = appendI32(body, int32(t.buckets))
	body = append(body,
		0x49,       // i32.lt_u
		0x0d, 0x00, // br_if loop
		0x0b,                   // end
		0x41, 0x00, 0x21, 0x00, // i = 0
		0x03, 0x40, // loop
		0x20, 0x00, 0x41, 0x08, 0x6c, // i * 8
		0x20, 0x00, 0x41) // i + entry0
	body = appendI32(body, int32(t.entry0))
	body = append(body, 0x6a, 0x36, 0x02) // i32.store align=4 offset=ftab
	body = appendU32(body, t.ftab)
	body = append(body,
		0x20, 0x00, 0x41, 0x08, 0x6c, // i * 8
		0x28, 0x02) // i32.load align=4 offset=ftab+4: the _func's offset
	body = appendU32(body, t.ftab+4)
	body = append(body, 0x20, 0x00, 0x41) // i + entry0
	body = appendI32(body, int32(t.entry0))
	body = append(body, 0x6a, 0x36, 0x02) // i32.store align=4 offset=pclntable
	body = appendU32(body, t.pclntable)
	body = append(body, 0x20, 0x00, 0x41, 0x01, 0x6a, 0x22, 0x00) // i = i + 1
	body = append(body, 0x41)                                     // i32.const funcs
	body = appendI32(body, int32(t.funcs))
	body = append(body,
		0x49,       // i32.lt_u
		0x0d, 0x00, // br_if loop
		0x0b, // end
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
	if err := t.check(mem); err != nil {
		return nil, err
	}
	t.clear(mem)
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
	secs[iCode].data = encodeVector(append(codes, t.start()))

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
