package page

import (
	"strconv"
	"strings"
)

// ms writes milliseconds as the timeline shows them.
func ms(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + " ms" }

// bytesText writes a size with thousands separators.
func bytesText(n int64) string { return group(n) + " B" }

func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 && r != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// statusClass is the class that colours a verdict; the words say it too.
func statusClass(s string) string {
	switch s {
	case "ok":
		return "good"
	case "warned", "interrupted", "running":
		return "note"
	case "failed", "errored":
		return "bad"
	}
	return "muted"
}
