package core

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Decoding is exact: names match as written (case included), a repeated
// or unknown name is an error naming it, every field is required and of its
// JSON kind, and null is neither a number nor a string. encoding/json would
// fold "LATENCY" and "ſ" onto latency and read a missing or null number as
// 0; jsontext only tokenises, so every rule here is ours.

// DecodeWire decodes one complete Wire exactly and checks every rule.
func DecodeWire(data []byte) (Wire, error) { return decodeWire(data, nil) }

// decodeWire is DecodeWire calling yield, when not nil, after every
// yieldEvery bytes of services read (see Services.Yield).
func decodeWire(data []byte, yield func()) (Wire, error) {
	dec := newDecoder(data)
	defer dec.Close()
	w, err := readWire(&dec.Decoder, yield)
	if err != nil {
		return Wire{}, err
	}
	return w, readEnd(dec)
}

func newDecoder(data []byte) *jsonpatch.Reader {
	// Repeated names are reported by the readers below, which can say
	// which name it was.
	return jsonpatch.NewReader(data, jsontext.AllowDuplicateNames(true))
}

func readWire(dec *jsontext.Decoder, yield func()) (Wire, error) {
	if err := readOpen(dec, '{', where{i: -1, field: "the state"}); err != nil {
		return Wire{}, err
	}
	var services []Service
	found := false
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return Wire{}, malformed(err)
		}
		switch name := tok.String(); {
		case name != "services":
			return Wire{}, fmt.Errorf("the state: unknown key %q", Clip(name))
		case found:
			return Wire{}, errors.New(`the state: duplicate key "services"`)
		}
		found = true
		if services, err = readServices(dec, yield); err != nil {
			return Wire{}, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return Wire{}, malformed(err)
	}
	if !found {
		return Wire{}, ruleError("services: is required")
	}
	return checkServices(services)
}

// checkServices applies the rules to decoded services and indexes them.
func checkServices(services []Service) (Wire, error) {
	if err := checkFields(services); err != nil {
		return Wire{}, err
	}
	w := NewWire(services)
	if len(w.ids) < len(services) {
		return Wire{}, firstDuplicate(services)
	}
	return w, nil
}

func readServices(dec *jsontext.Decoder, yield func()) ([]Service, error) {
	if err := readOpen(dec, '[', where{i: -1, field: "services"}); err != nil {
		return nil, err
	}
	services := []Service{}
	next := dec.InputOffset() + yieldEvery
	for i := 0; dec.PeekKind() != ']'; i++ {
		if yield != nil && dec.InputOffset() >= next {
			yield()
			next = dec.InputOffset() + yieldEvery
		}
		if i == MaxServices {
			return nil, ruleError(fmt.Sprintf("services: more than %d services", MaxServices))
		}
		s, err := readService(dec, i)
		if err != nil {
			return nil, err
		}
		services = append(services, s)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, malformed(err)
	}
	return slices.Clip(services), nil
}

// The fields of a Service, as bits of a set.
const (
	fieldID = 1 << iota
	fieldName
	fieldSeries
	fieldVolume
	fieldLatency
	allFields = fieldID | fieldName | fieldSeries | fieldVolume | fieldLatency
)

var fieldNames = []string{"id", "name", "series", "volume", "latency"}

// decodeService decodes one service's JSON alone, worded as services[i].
func decodeService(data []byte, i int) (Service, error) {
	dec := newDecoder(data)
	defer dec.Close()
	s, err := readService(&dec.Decoder, i)
	if err != nil {
		return Service{}, err
	}
	return s, readEnd(dec)
}

func readService(dec *jsontext.Decoder, i int) (Service, error) {
	at := func(field string) where { return where{i: i, field: field} }
	if err := readOpen(dec, '{', at("")); err != nil {
		return Service{}, err
	}
	var s Service
	have := 0
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return Service{}, malformed(err)
		}
		name := tok.String()
		field := slices.Index(fieldNames, name)
		switch {
		case field < 0:
			return Service{}, fmt.Errorf("%v: unknown key %q", at(""), Clip(name))
		case have&(1<<field) != 0:
			return Service{}, fmt.Errorf("%v: duplicate key %q", at(""), name)
		}
		have |= 1 << field
		switch 1 << field {
		case fieldID:
			s.ID, err = readString(dec, at(".id"))
		case fieldName:
			s.Name, err = readString(dec, at(".name"))
		case fieldSeries:
			var series string
			series, err = readString(dec, at(".series"))
			s.Series = Series(series)
		case fieldVolume:
			s.Volume, err = readNumber(dec, at(".volume"))
		case fieldLatency:
			s.Latency, err = readNumber(dec, at(".latency"))
		}
		if err != nil {
			return Service{}, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return Service{}, malformed(err)
	}
	if have != allFields {
		for field, name := range fieldNames {
			if have&(1<<field) == 0 {
				return Service{}, ruleError(at("."+name).String() + ": is required")
			}
		}
	}
	return s, nil
}

// where names a place in the state for an error, worded only when one
// happens: services[i].field, or field alone when i < 0.
type where struct {
	i     int
	field string
}

func (w where) String() string {
	if w.i < 0 {
		return w.field
	}
	return "services[" + strconv.Itoa(w.i) + "]" + w.field
}

func readString(dec *jsontext.Decoder, at where) (string, error) {
	if k := dec.PeekKind(); k != '"' {
		return "", wrongKind(dec, at, "a string", k)
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return "", malformed(err)
	}
	return tok.String(), nil
}

func readNumber(dec *jsontext.Decoder, at where) (float64, error) {
	if k := dec.PeekKind(); k != '0' {
		return 0, wrongKind(dec, at, "a number", k)
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return 0, malformed(err)
	}
	text := tok.String()
	v, err := strconv.ParseFloat(text, 64) // jsontext's Float saturates 1e400 to the largest float
	if err != nil || math.IsInf(v, 0) {
		return 0, ruleError(at.String() + ": must be a finite number")
	}
	if !readsBack(text, v) {
		// The Wire keeps a float64, and patches, tests and the resume's
		// state would see another number than the agent sent.
		return 0, ruleError(fmt.Sprintf("%s: must be a number a float64 holds: %s reads as %s", at, Clip(text), number(v)))
	}
	return v + 0, nil // -0 reads as 0
}

// readsBack reports whether v, written back, is the number text is: any
// with at most 15 significant digits is (a float64 keeps 15), unless it
// is too small for a float64's full precision (1e-400 reads as 0,
// 2.5e-324 as 5e-324); a longer one only if those past them say nothing
// (12.500000000000000000) or the float64 holds it exactly
// (9007199254740994).
func readsBack(text string, v float64) bool {
	digits, leading := 0, true
	for i := 0; i < len(text) && text[i] != 'e' && text[i] != 'E'; i++ {
		switch c := text[i]; {
		case c == '0' && leading, c < '0' || c > '9':
		default:
			leading = false
			digits++
		}
	}
	if digits == 0 || digits <= 15 && math.Abs(v) >= 0x1p-1022 { // 0, or a normal float64
		return true
	}
	return jsonpatch.Equal(jsonpatch.Number(text), number(v))
}

func readOpen(dec *jsontext.Decoder, kind jsontext.Kind, at where) error {
	if k := dec.PeekKind(); k != kind {
		want := map[jsontext.Kind]string{'{': "an object", '[': "an array"}[kind]
		return wrongKind(dec, at, want, k)
	}
	if _, err := dec.ReadToken(); err != nil {
		return malformed(err)
	}
	return nil
}

// readEnd: nothing but white space may follow the value.
func readEnd(dec *jsonpatch.Reader) error {
	if !dec.AtEnd() {
		return errors.New("data after the JSON value")
	}
	return nil
}

// wrongKind words a value of the wrong kind; a kind of 0 is a syntax
// error, which reading the token reports.
func wrongKind(dec *jsontext.Decoder, at where, want string, got jsontext.Kind) error {
	kinds := map[jsontext.Kind]string{'n': "null", 'f': "a boolean", 't': "a boolean", '"': "a string",
		'0': "a number", '{': "an object", '[': "an array"}
	if name, ok := kinds[got]; ok {
		return ruleError(fmt.Sprintf("%v: must be %s, not %s", at, want, name))
	}
	_, err := dec.ReadToken()
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return malformed(err)
}

func malformed(err error) error { return fmt.Errorf("malformed JSON: %w", err) }
