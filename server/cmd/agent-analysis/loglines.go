package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
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
		t := r.Time.Round(0)
		if y := t.Year(); y < 0 || y >= 10000 {
			return b, false
		}
		b = h.appendKey(b, slog.TimeKey, true)
		if h.json {
			b = append(t.AppendFormat(append(b, '"'), time.RFC3339Nano), '"')
		} else {
			// As the text handler writes it: milliseconds, all three digits.
			n := len(b) + len("2006-01-02T15:04:05.000")
			b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
			b = append(b[:n], b[n+1:]...)
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
// sign. Thread and run ids, paths and scenario names mostly are.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return s != ""
}

var plainByte = func() (plain [256]bool) {
	for c := '!'; c <= '~'; c++ {
		plain[c] = c != '"' && c != '\\' && c != '='
	}
	return plain
}()
