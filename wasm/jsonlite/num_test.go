package jsonlite

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// ParseInt and ParseUint stand in for strconv.ParseInt and strconv.ParseUint
// with base 10; they must accept and refuse the same strings and return the
// same values for every bit size. (Bit size 1 is left out: strconv.ParseInt
// then reads every negative number as -1, which nothing here relies on.)
func TestParseIntAsStrconv(t *testing.T) {
	inputs := []string{
		"", "0", "-0", "+0", "00", "007", "1", "-1", "+1", "+", "-", "--1", "+-1", " 1", "1 ", "1_000",
		"0x10", "1e3", "1.0", "١", "9", "10", "a", "1a", "-a",
		"127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769", "65535", "65536",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "18446744073709551620", "99999999999999999999",
		"-18446744073709551615", "184467440737095516150", "000000000000000000000000018446744073709551615",
	}
	for i := 0; i < 64; i++ {
		for _, d := range []int64{-1, 0, 1} {
			inputs = append(inputs,
				strconv.FormatUint(uint64(1)<<i+uint64(d), 10),
				strconv.FormatInt(-(int64(1)<<i)+d, 10),
				"+"+strconv.FormatUint(uint64(1)<<i+uint64(d), 10))
		}
	}
	for n := uint64(1); n < 1<<63; n = n*3 + 1 {
		inputs = append(inputs, strconv.FormatUint(n, 10), "-"+strconv.FormatUint(n, 10))
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		b := make([]byte, rnd.IntN(23))
		for j := range b {
			b[j] = "0123456789999999+-_ ."[rnd.IntN(21)]
		}
		inputs = append(inputs, string(b))
	}
	for _, bits := range []int{-1, 0, 2, 7, 8, 16, 31, 32, 33, 53, 63, 64, 65} {
		for _, s := range inputs {
			wantI, errI := strconv.ParseInt(s, 10, bits)
			gotI, ok := ParseInt(s, bits)
			if ok != (errI == nil) || ok && gotI != wantI {
				t.Errorf("ParseInt(%q, %d) = %d, %v; strconv: %d, %v", s, bits, gotI, ok, wantI, errI)
			}
			wantU, errU := strconv.ParseUint(s, 10, bits)
			gotU, ok := ParseUint(s, bits)
			if ok != (errU == nil) || ok && gotU != wantU {
				t.Errorf("ParseUint(%q, %d) = %d, %v; strconv: %d, %v", s, bits, gotU, ok, wantU, errU)
			}
		}
	}
}
