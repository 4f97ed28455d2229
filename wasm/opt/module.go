package main

import (
	"encoding/binary"
	"errors"
)

// The WebAssembly binary format, as much of it as the rewrite needs: the
// module's sections in order, the function counts, and the active data
// segments that Go's linker and wasm-opt write (memory 0, an i32.const
// offset).

const (
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secExport    = 7
	secStart     = 8
	secElement   = 9
	secCode      = 10
	secData      = 11
	secDataCount = 12
)

type section struct {
	id   byte
	data []byte
}

var wasmHeader = []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}

var errFormat = errors.New("not a WebAssembly module this rewrite understands")

// reader reads the format's LEB128 integers and byte strings; the first
// malformed read sets err and every later read returns zero.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errFormat
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) u32() uint32 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > 0xffffffff {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return uint32(v)
}

func (r *reader) i32() int32 {
	var result int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		result |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				result |= -1 << shift
			}
			break
		}
		if shift >= 35 {
			r.fail()
			return 0
		}
	}
	if result < -1<<31 || result > 1<<31-1 {
		r.fail()
		return 0
	}
	return int32(result)
}

func (r *reader) bytes(n uint32) []byte {
	if uint64(n) > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func appendU32(b []byte, v uint32) []byte {
	return binary.AppendUvarint(b, uint64(v))
}

func appendI32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func parseModule(b []byte) ([]section, error) {
	if len(b) < len(wasmHeader) || string(b[:len(wasmHeader)]) != string(wasmHeader) {
		return nil, errFormat
	}
	r := reader{b: b[len(wasmHeader):]}
	var secs []section
	for len(r.b) > 0 && r.err == nil {
		id := r.byte()
		data := r.bytes(r.u32())
		secs = append(secs, section{id, data})
	}
	return secs, r.err
}

func encodeModule(secs []section) []byte {
	out := append([]byte(nil), wasmHeader...)
	for _, s := range secs {
		out = append(out, s.id)
		out = appendU32(out, uint32(len(s.data)))
		out = append(out, s.data...)
	}
	return out
}

// vector splits a section made of a count and that many entries, each
// read by entry, into the entries' bytes.
func vector(data []byte, entry func(*reader)) ([][]byte, error) {
	r := reader{b: data}
	n := r.u32()
	var items [][]byte
	for i := uint32(0); i < n && r.err == nil; i++ {
		start := r.b
		entry(&r)
		items = append(items, start[:len(start)-len(r.b)])
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail()
	}
	return items, r.err
}

func encodeVector(items [][]byte) []byte {
	out := appendU32(nil, uint32(len(items)))
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

// importedFuncs counts the functions among a module's imports; they come
// before the module's own functions in the function index space.
func importedFuncs(data []byte) (uint32, error) {
	var funcs uint32
	_, err := vector(data, func(r *reader) {
		r.bytes(r.u32()) // module
		r.bytes(r.u32()) // name
		switch r.byte() {
		case 0x00: // function: type index
			r.u32()
			funcs++
		case 0x01: // table: reference type, limits
			r.byte()
			limits(r)
		case 0x02: // memory: limits
			limits(r)
		case 0x03: // global: value type, mutability
			r.byte()
			r.byte()
		default:
			r.fail()
		}
	})
	return funcs, err
}

func limits(r *reader) {
	flags := r.byte()
	r.u32()
	if flags&1 != 0 {
		r.u32()
	}
}

// segment is an active data segment of memory 0.
type segment struct {
	offset uint32
	data   []byte
}

func parseData(data []byte) ([]segment, error) {
	var segs []segment
	_, err := vector(data, func(r *reader) {
		if r.u32() != 0 || r.byte() != 0x41 { // active, memory 0, i32.const
			r.fail()
			return
		}
		off := r.i32()
		if r.byte() != 0x0b { // end
			r.fail()
			return
		}
		segs = append(segs, segment{uint32(off), r.bytes(r.u32())})
	})
	return segs, err
}

func encodeData(segs []segment) []byte {
	out := appendU32(nil, uint32(len(segs)))
	for _, s := range segs {
		out = append(out, 0x00, 0x41)
		out = appendI32(out, int32(s.offset))
		out = append(out, 0x0b)
		out = appendU32(out, uint32(len(s.data)))
		out = append(out, s.data...)
	}
	return out
}
