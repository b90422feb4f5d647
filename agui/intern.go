package agui

// interned holds the strings the schema names (members, event types,
// constants, enum values), so that reading one of them shares the
// schema's string (stringOf). It is an open-addressed table hashed on a
// few bytes, not a map: the map's lookup, cold in a busy server, was some
// 1.5% of a served stream's CPU (perf, under bench/peer's load). Its
// length is a power of two about four times the strings it holds, so most
// lookups meet their string or an empty slot first, and it never fills
// (TestSchemaStringsAreShared). stringsOf fills it.
type interned []string

// probe is the slot holding text, or the empty one where it would go.
// The first tried mixes text's length and three of its bytes.
func (t interned) probe(text []byte) int {
	n := len(text)
	h := uint32(n)*0x9e3779b1 ^ uint32(text[0])*0x85ebca77 ^ uint32(text[n/2])*0xc2b2ae3d ^ uint32(text[n-1])*0x27d4eb2f
	i := int(h>>16) & (len(t) - 1)
	for t[i] != "" && t[i] != string(text) {
		i = (i + 1) & (len(t) - 1)
	}
	return i
}

// hold holds s, a string JSON writes as it is within quotes.
func (t interned) hold(s string) {
	if s != "" {
		t[t.probe([]byte(s))] = s
	}
}

// find is the held string whose JSON text raw is, if there is one.
func (t interned) find(raw []byte) (string, bool) {
	if len(raw) < 3 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := t[t.probe(raw[1:len(raw)-1])]
	return s, s != ""
}
