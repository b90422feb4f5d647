package server

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads what io.ReadAll reads, whatever length the body
// announces and however it arrives.
func TestReadAllIsIoReadAll(t *testing.T) {
	for _, body := range []string{"", "{}", strings.Repeat("x", 511), strings.Repeat("x", 512), strings.Repeat("y", 5000)} {
		for _, size := range []int64{-1, 0, int64(len(body)), int64(len(body)) + 7} {
			for name, r := range map[string]func() io.Reader{
				"whole":    func() io.Reader { return strings.NewReader(body) },
				"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) },
				"data+EOF": func() io.Reader { return iotest.DataErrReader(strings.NewReader(body)) },
			} {
				got, err := readAll(r(), size)
				want, _ := io.ReadAll(r())
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%d bytes announced as %d, %s: %d bytes, %v", len(body), size, name, len(got), err)
				}
			}
		}
	}
	if _, err := readAll(iotest.ErrReader(io.ErrUnexpectedEOF), 10); err != io.ErrUnexpectedEOF {
		t.Errorf("error %v", err)
	}
}
