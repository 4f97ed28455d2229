package promtext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	got, err := Parse(strings.NewReader("# HELP x y\n# TYPE x counter\nx{code=\"4001\"} 2\n\ny 1.5e+06\n"))
	require.NoError(t, err)
	require.Equal(t, map[string]float64{`x{code="4001"}`: 2, "y": 1.5e6}, got)
	_, err = Parse(strings.NewReader("x{a=\"b\"} NaNx\n"))
	require.Error(t, err)
}
