package jsonpatch

import (
	"strings"
	"testing"
)

// RFC 6902 section 4.6: numbers are equal "if their values are
// numerically equal", exactly: not as float64s, and past any precision.
func TestEqualNumbers(t *testing.T) {
	long := "1." + strings.Repeat("0", 400) + "1"
	tests := []struct {
		a, b Number
		same bool
	}{
		{"1", "1", true},
		{"1", "1.0", true},
		{"1", "10e-1", true},
		{"100", "1E+2", true},
		{"0.1", "1e-1", true},
		{"0.1", "0.10", true},
		{"-0", "0", true},
		{"0", "0.000e7", true},
		{"-12.5", "-125e-1", true},
		{"1e400", "10e399", true},
		{"1e10000000000000000000", "10e9999999999999999999", true},        // an exponent past int64
		{"123e-20000000000000000000", "1.23e-19999999999999999998", true}, // and negative
		{"0.5e-999999999999999999", "5e-1000000000000000000", true},       // across the 18-digit boundary
		{"0.1e1000000000000000000", "1e999999999999999999", true},
		{"10e-1000000000000000001", "1e-1000000000000000000", true},
		{"0.05", "5e-2", true},
		{"5e-0", "5", true},
		{"1", "2", false},
		{"1", "-1", false},
		{"0", "1e-400", false},
		{"9007199254740993", "9007199254740992", false}, // one float64
		{"0.1000000000000000055511", "0.1", false},      // one float64
		{"12", "1.2", false},
		{"1e10000000000000000000", "1e10000000000000000001", false},
		{Number(long + "e400"), "1e400", false}, // past 1024 bits
		{Number(long + "e400"), Number(long + "0e400"), true},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.same {
			t.Errorf("Equal(%.40s, %.40s) = %v", tt.a, tt.b, got)
		}
		if got := Equal(tt.b, tt.a); got != tt.same {
			t.Errorf("Equal(%.40s, %.40s) = %v", tt.b, tt.a, got)
		}
	}
}

// BenchmarkEqualNumbers compares numbers as state patches test them:
// mostly short, often the same text.
func BenchmarkEqualNumbers(b *testing.B) {
	for _, pair := range [][2]Number{{"42", "42"}, {"42", "43"}, {"1.5", "15e-1"}, {"9007199254740993", "9007199254740992"}} {
		b.Run(string(pair[0])+"="+string(pair[1]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Equal(pair[0], pair[1])
			}
		})
	}
}
