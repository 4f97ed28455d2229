// Package promtext reads the Prometheus text exposition format the way a
// test looks at it: each sample as "name{labels}" → value.
package promtext

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Parse returns the samples of r; comment and blank lines are skipped.
func Parse(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			return nil, fmt.Errorf("promtext: no value in %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("promtext: %q: %w", line, err)
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}
