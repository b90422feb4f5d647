package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// lineHandler writes the line every request logs as the standard JSON or
// text handler it stands in front of would, byte for byte, in a fraction
// of its time (BenchmarkRequestLine): a line whose message, keys and
// string values are plain text (plainText) and whose other values are
// integers, booleans or durations. Those need no escaping or quoting in
// either format, which is most of what the standard handler spends. Any
// other line, and every logger made With attributes or a group, goes to
// the standard handler.
type lineHandler struct {
	slog.Handler           // the standard handler, writing to out
	out          io.Writer // one Write a line, safe for concurrent use (batchedWriter)
	json         bool
}

// lineBuffers keep a line's bytes between lines; a line longer than
// maxPooledLine is left to the collector.
var lineBuffers = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledLine = 4 << 10

func (h *lineHandler) Handle(ctx context.Context, r slog.Record) error {
	buf := lineBuffers.Get().(*[]byte)
	line, ok := h.appendLine((*buf)[:0], r)
	var err error
	if ok {
		_, err = h.out.Write(line)
	}
	if cap(line) <= maxPooledLine {
		*buf = line[:0]
		lineBuffers.Put(buf)
	}
	if !ok {
		return h.Handler.Handle(ctx, r)
	}
	return err
}

// appendLine adds r's line to b; ok is false when it is not plain.
func (h *lineHandler) appendLine(b []byte, r slog.Record) (_ []byte, ok bool) {
	if !plainText(r.Message) {
		return b, false
	}
	if h.json {
		b = append(b, '{')
	}
	if !r.Time.IsZero() {
		st := stampOf(r.Time)
		if st == nil {
			return b, false
		}
		b = h.appendKey(b, slog.TimeKey, true)
		if h.json {
			b = append(h.appendTime(append(b, '"'), st, r.Time.Nanosecond()), '"')
		} else {
			b = h.appendTime(b, st, r.Time.Nanosecond())
		}
	}
	b = h.appendString(h.appendKey(b, slog.LevelKey, r.Time.IsZero()), r.Level.String())
	b = h.appendString(h.appendKey(b, slog.MessageKey, false), r.Message)
	ok = true
	r.Attrs(func(a slog.Attr) bool {
		if ok = plainText(a.Key); !ok {
			return false
		}
		b = h.appendKey(b, a.Key, false)
		switch v := a.Value; v.Kind() {
		case slog.KindString:
			if ok = plainText(v.String()); ok {
				b = h.appendString(b, v.String())
			}
		case slog.KindInt64:
			b = strconv.AppendInt(b, v.Int64(), 10)
		case slog.KindUint64:
			b = strconv.AppendUint(b, v.Uint64(), 10)
		case slog.KindBool:
			b = strconv.AppendBool(b, v.Bool())
		case slog.KindDuration:
			if h.json {
				b = strconv.AppendInt(b, int64(v.Duration()), 10)
			} else {
				b = append(b, v.Duration().String()...)
			}
		default:
			ok = false
		}
		return ok
	})
	if h.json {
		b = append(b, '}')
	}
	return append(b, '\n'), ok
}

// A stamp is a line's time to the second, as both formats write it:
// formatting the whole time was a fifth of a line's cost.
type stamp struct {
	unix int64
	loc  *time.Location
	date []byte // 2006-01-02T15:04:05
	zone []byte // Z07:00
}

// lastStamp is made once a second and shared.
var lastStamp atomic.Pointer[stamp]

// stampOf is t's stamp; nil when its year takes other than four digits,
// which neither format writes.
func stampOf(t time.Time) *stamp {
	if st := lastStamp.Load(); st != nil && st.unix == t.Unix() && st.loc == t.Location() {
		return st
	}
	if y := t.Year(); y < 0 || y >= 10000 {
		return nil
	}
	st := &stamp{unix: t.Unix(), loc: t.Location(), date: t.AppendFormat(nil, "2006-01-02T15:04:05"), zone: t.AppendFormat(nil, "Z07:00")}
	lastStamp.Store(st)
	return st
}

// appendTime adds a time of stamp st and nanoseconds ns as the standard
// handler writes it: in JSON as RFC 3339 with nanoseconds, trailing zeros
// and a bare dot left out (time.RFC3339Nano); in text with milliseconds,
// all three digits.
func (h *lineHandler) appendTime(b []byte, st *stamp, ns int) []byte {
	b = append(b, st.date...)
	if !h.json {
		ms := ns / 1e6
		b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	} else if ns != 0 {
		digits := 9
		for ; ns%10 == 0; ns /= 10 {
			digits--
		}
		b = append(b, ".000000000"[:digits+1]...)
		for i := len(b) - 1; ns > 0; i, ns = i-1, ns/10 {
			b[i] = byte('0' + ns%10)
		}
	}
	return append(b, st.zone...)
}

// appendKey adds a plain key and what follows it; first is true for the
// line's first.
func (h *lineHandler) appendKey(b []byte, key string, first bool) []byte {
	if !first {
		if h.json {
			b = append(b, ',')
		} else {
			b = append(b, ' ')
		}
	}
	if h.json {
		return append(append(append(b, '"'), key...), '"', ':')
	}
	return append(append(b, key...), '=')
}

func (h *lineHandler) appendString(b []byte, s string) []byte {
	if h.json {
		return append(append(append(b, '"'), s...), '"')
	}
	return append(b, s...)
}

// plainText is text both formats write as it is, quoted in JSON: printable
// ASCII, not empty, without a space, a quote, a backslash or an equals
// sign. Thread and run ids, paths and scenario names mostly are. Eight
// bytes are read at a time (plainWord), the rest one by one: every key
// and string of every line is read, a fifth of a line's cost byte by byte.
func plainText(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if !plainWord(w) {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return s != ""
}

// plainWord reports whether the eight bytes of w are all plainByte, by
// the tests on every byte at once of Bit Twiddling Hacks
// (graphics.stanford.edu/~seander/bithacks.html): each sets the high bit
// of some byte when a byte of w is below '!', above '~', or one of the
// three refused.
func plainWord(w uint64) bool {
	below := (w - ones*'!') &^ w & highs
	above := (w + ones*(0x7f-'~') | w) & highs
	return below|above|hasByte(w, '"')|hasByte(w, '\\')|hasByte(w, '=') == 0
}

// ones has 1 in each byte of a word, highs each byte's high bit.
const ones, highs = 0x0101010101010101, 0x8080808080808080

// hasByte is not 0 when a byte of w is c.
func hasByte(w uint64, c byte) uint64 {
	x := w ^ ones*uint64(c)
	return (x - ones) &^ x & highs
}

var plainByte = func() (plain [256]bool) {
	for c := '!'; c <= '~'; c++ {
		plain[c] = c != '"' && c != '\\' && c != '='
	}
	return plain
}()
