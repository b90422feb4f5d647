// Command compress writes FILE.br beside a file, brotli-compressed: make
// wasm uses it for web/app.wasm, a Go encoder rather than the brotli
// command, so that a bare machine serves the smallest encoding too; make
// run starts it in the background while the server sends the wasm
// gzipped. It says in one line what it wrote. Interrupted, it leaves
// nothing behind.
//
//	go run ./server/cmd/compress -q 9 web/app.wasm
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/andybalholm/brotli"
)

func main() {
	quality := flag.Int("q", 9, "brotli quality, 0 to 11")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: compress [-q quality] FILE")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	wrote, err := compress(ctx, flag.Arg(0), *quality)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(os.Stderr, "compress: interrupted: %s.br not written\n", flag.Arg(0))
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "compress:", err)
		os.Exit(1)
	}
	if wrote < 0 {
		fmt.Printf("compress: %s.br already holds %s\n", flag.Arg(0), flag.Arg(0))
		return
	}
	fmt.Printf("compress: wrote %s.br, %.2f MB, at quality %d in %.0f s\n", flag.Arg(0), float64(wrote)/1e6, *quality, time.Since(start).Seconds())
}

// chunk is how much is compressed between two looks at the context: at
// quality 11, some tens of milliseconds.
const chunk = 64 << 10

// compress writes path.br through a temporary file, so that a reader never
// sees half of it, and returns its size. A path.br that already holds
// path's bytes is kept (and made newer than path): quality 11 takes half a
// minute; then the size is -1. When ctx ends first, the temporary file is
// removed and path.br left as it was.
func compress(ctx context.Context, path string, quality int) (int64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if holds(path+".br", raw) {
		now := time.Now()
		return -1, os.Chtimes(path+".br", now, now)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".br.*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	defer tmp.Close()
	w := brotli.NewWriterLevel(tmp, quality)
	for rest := raw; len(rest) > 0; rest = rest[min(chunk, len(rest)):] {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if _, err := w.Write(rest[:min(chunk, len(rest))]); err != nil {
			return 0, err
		}
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return 0, err
	}
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	return size, os.Rename(tmp.Name(), path+".br")
}

// holds reports whether the brotli file decodes to exactly raw.
func holds(brPath string, raw []byte) bool {
	f, err := os.Open(brPath)
	if err != nil {
		return false
	}
	defer f.Close()
	got, err := io.ReadAll(io.LimitReader(brotli.NewReader(f), int64(len(raw))+1))
	return err == nil && bytes.Equal(got, raw)
}
