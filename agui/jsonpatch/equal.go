package jsonpatch

// Equal is JSON equality as RFC 6902 section 4.6 defines it for "test":
// numbers by their value (1 equals 1.0, -0 equals 0), objects whatever the
// order of their members, arrays item by item.
func Equal(a, b Value) bool {
	switch a := a.(type) {
	case *Object:
		b, ok := b.(*Object)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for i, name := range a.names {
			w, ok := b.Get(name)
			if !ok || !Equal(a.values[i], w) {
				return false
			}
		}
		return true
	case *Array:
		b, ok := b.(*Array)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for i := range a.items {
			if !Equal(a.items[i], b.items[i]) {
				return false
			}
		}
		return true
	case Number:
		b, ok := b.(Number)
		return ok && sameNumber(a, b)
	default:
		return a == b // string, bool or nil
	}
}

// sameNumber compares two JSON numbers by value, exactly: 1, 1.0 and
// 10e-1 are one number, and 9007199254740993 and 9007199254740992, one
// float64, are two. Text that is not a number equals only itself.
func sameNumber(a, b Number) bool {
	if a == b {
		return true
	}
	x, okA := readDecimal(string(a))
	y, okB := readDecimal(string(b))
	if !okA || !okB {
		return false
	}
	if x.digits == "" || y.digits == "" { // zero, whatever its sign
		return x.digits == y.digits
	}
	return x.neg == y.neg && x.exp == y.exp && x.expHigh == y.expHigh && sameDigits(x.digits, y.digits)
}

// decimal is a number as ±0.D × 10^exp, D its significant digits, first
// and last not 0: one form for each value.
type decimal struct {
	neg    bool
	digits string // D as written, a '.' perhaps among them; "" for zero
	// exp, unless a JSON exponent, which has no bound, makes it too long
	// for an int64: then expHigh is its sign and digits but the last 18,
	// and exp those 18.
	exp     int64
	expHigh string
}

const lowDigits = 1e18 // the part of a long exponent exp holds

// readDecimal reads a JSON number's text without converting it.
func readDecimal(s string) (d decimal, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg, i = true, 1
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	point := i - intStart // where the point is, among the mantissa's digits
	mantissa := s[intStart:i]
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		mantissa = s[intStart:i]
	}
	if point == 0 && len(mantissa) <= 1 {
		return d, false // no digits
	}
	// D: the mantissa from its first significant digit to its last.
	first, seen := 0, 0 // seen: the digits before first
	for first < len(mantissa) && (mantissa[first] == '0' || mantissa[first] == '.') {
		if mantissa[first] == '0' {
			seen++
		}
		first++
	}
	last := len(mantissa)
	for last > first && (mantissa[last-1] == '0' || mantissa[last-1] == '.') {
		last--
	}
	d.digits = mantissa[first:last]
	if d.digits == "" {
		return d, i == len(s) || validExponent(s[i:])
	}
	shift := int64(point - seen) // 0.D × 10^shift is the mantissa
	if i == len(s) {
		d.setExp(shift)
		return d, true
	}
	if !validExponent(s[i:]) {
		return d, false
	}
	i++ // e or E
	negExp := s[i] == '-'
	if s[i] == '-' || s[i] == '+' {
		i++
	}
	for i < len(s)-1 && s[i] == '0' {
		i++
	}
	e := s[i:]
	if len(e) <= 18 {
		exp := atoi(e)
		if negExp {
			exp = -exp
		}
		d.setExp(exp + shift)
		return d, true
	}
	// A long exponent's magnitude is high × 10^18 + low; the shift moves it
	// by less than 10^18, so by one in high at most.
	high, low := e[:len(e)-18], atoi(e[len(e)-18:])
	if negExp {
		shift = -shift
	}
	switch low += shift; {
	case low >= lowDigits:
		high, low = addOne(high), low-lowDigits
	case low < 0:
		high, low = subtractOne(high), low+lowDigits
	}
	if high == "" { // short after all
		if negExp {
			low = -low
		}
		d.exp = low
		return d, true
	}
	d.exp, d.expHigh = low, high
	if negExp {
		d.expHigh = "-" + high
	}
	return d, true
}

// setExp sets an exponent that fits an int64, in the long form when it
// is 10^18 or more from 0, as a long exponent's would be.
func (d *decimal) setExp(exp int64) {
	switch {
	case exp >= lowDigits:
		d.exp, d.expHigh = exp-lowDigits, "1"
	case exp <= -lowDigits:
		d.exp, d.expHigh = -exp-lowDigits, "-1"
	default:
		d.exp = exp
	}
}

// validExponent: an exponent part, e or E, a sign perhaps, digits.
func validExponent(s string) bool {
	if len(s) < 2 || (s[0] != 'e' && s[0] != 'E') {
		return false
	}
	s = s[1:]
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// atoi reads at most 18 digits.
func atoi(s string) int64 {
	var n int64
	for i := range len(s) {
		n = n*10 + int64(s[i]-'0')
	}
	return n
}

// addOne and subtractOne change a number of decimal digits, without
// leading zeros, by one; subtractOne("1") is "".
func addOne(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

func subtractOne(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != '0' {
			b[i]--
			break
		}
		b[i] = '9'
	}
	for len(b) > 0 && b[0] == '0' {
		b = b[1:]
	}
	return string(b)
}

// sameDigits compares two runs of significant digits, a point among
// either skipped.
func sameDigits(a, b string) bool {
	i, j := 0, 0
	for {
		if i < len(a) && a[i] == '.' {
			i++
		}
		if j < len(b) && b[j] == '.' {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}
