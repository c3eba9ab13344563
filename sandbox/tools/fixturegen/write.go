package fixturegen

import (
	"bufio"
	"bytes"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fileWriter is a buffered file that notes its size and CRC-32C as it is
// written, for the stamp (seed.WriteStamp): nothing is read back.
type fileWriter struct {
	f    *os.File
	w    *bufio.Writer
	sum  seed.WrittenFile
	err  error
	name string
}

func createFile(dir, name string) (*fileWriter, error) {
	f, err := os.Create(filepath.Join(dir, "eshops", Eshop, name+".json"))
	if err != nil {
		return nil, err
	}
	fw := &fileWriter{f: f, name: name, sum: seed.WrittenFile{Path: "eshops/" + Eshop + "/" + name + ".json"}}
	fw.w = bufio.NewWriterSize(crcWriter{fw}, 1<<20)
	return fw, nil
}

// crcWriter sits between the buffer and the file.
type crcWriter struct{ fw *fileWriter }

func (c crcWriter) Write(p []byte) (int, error) {
	c.fw.sum.CRC32C = crc32.Update(c.fw.sum.CRC32C, castagnoli, p)
	c.fw.sum.Size += int64(len(p))
	return c.fw.f.Write(p)
}

func (fw *fileWriter) write(p []byte) {
	if fw.err == nil {
		_, fw.err = fw.w.Write(p)
	}
}

// close flushes and closes the file and returns what the stamp needs.
func (fw *fileWriter) close() (seed.WrittenFile, error) {
	if fw.err == nil {
		fw.err = fw.w.Flush()
	}
	if err := fw.f.Close(); fw.err == nil {
		fw.err = err
	}
	return fw.sum, fw.err
}

// listWriter writes a collection file in the line layout (seed.StampFile):
// "[", then one compact record per line, each but the last followed by a
// comma, then "]"; an empty list is "[]" as encoding/json indents it.
// Records come in batches, each record in a batch followed by ",\n".
type listWriter struct {
	*fileWriter
	n int
}

func (lw *listWriter) add(b *batch) {
	if b.n == 0 {
		return
	}
	if lw.n == 0 {
		lw.write([]byte("[\n"))
	} else {
		lw.write([]byte(",\n"))
	}
	lw.write(b.buf[:len(b.buf)-2])
	lw.n += b.n
	lw.sum.Meta = lw.sum.Meta || b.meta
	b.release()
}

func (lw *listWriter) close() (seed.WrittenFile, error) {
	if lw.n == 0 {
		lw.write([]byte("[]\n"))
	} else {
		lw.write([]byte("\n]\n"))
		lw.sum.Lines = true
	}
	return lw.fileWriter.close()
}

// batch is a run of encoded records, each followed by ",\n".
type batch struct {
	buf  []byte
	n    int
	meta bool
	err  error
}

// buffers are batches' buffers, used again once written: a batch of
// large records would otherwise grow a new buffer, copy after copy. (A
// sync.Pool is emptied by the collections a large set sets off.)
var buffers = make(chan []byte, 64)

// release hands the batch's buffer back once it is written.
func (b *batch) release() {
	if cap(b.buf) > 0 {
		select {
		case buffers <- b.buf[:0]:
		default:
		}
	}
	b.buf = nil
}

// record encodes one record into the batch, its identifier first.
func (b *batch) record(m map[string]any, idField string) { b.recordOrdered(m, idField, nil) }

// recordOrdered is record for a record whose keys are, at most, keys
// (sorted; nil: any keys).
func (b *batch) recordOrdered(m map[string]any, idField string, keys []string) {
	if b.err != nil {
		return
	}
	if b.buf == nil {
		select {
		case b.buf = <-buffers:
		default:
		}
	}
	// Room for a large record, the buffer doubled when short of it
	// (append grows large buffers by a quarter, copy after copy).
	if cap(b.buf)-len(b.buf) < 64<<10 {
		buf := make([]byte, len(b.buf), 2*cap(b.buf)+128<<10)
		copy(buf, b.buf)
		b.buf = buf
	}
	start := len(b.buf)
	if keys != nil {
		b.buf, b.err = appendOrdered(b.buf, m, idField, keys)
	} else {
		b.buf, b.err = appendRecord(b.buf, m, idField)
	}
	if b.err != nil {
		return
	}
	b.meta = b.meta || hasMeta(b.buf[start:])
	b.buf = append(b.buf, ',', '\n')
	b.n++
}

// hasMeta tells whether a record carries one of the store's own fields
// (what the loader strips, see seed's hasMeta).
func hasMeta(rec []byte) bool {
	return bytes.Contains(rec, []byte(`"_seq"`)) || bytes.Contains(rec, []byte(`"_expiresAt"`))
}

// chunkSize is the number of products or orders a worker makes at a time.
const chunkSize = 64

// pipeline makes (gen) [0, n) in chunks of size on workers goroutines and
// hands every chunk's result to emit in chunk order, so what is written
// does not depend on the number of workers. At most 2*workers chunks are
// made ahead of emit, which bounds the memory of a large set. After an
// error from emit the remaining chunks are made and dropped.
func pipeline[T any](n, size, workers int, gen func(lo, hi int) T, emit func(T) error) error {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (n + size - 1) / size
	results := make([]chan T, chunks)
	for i := range results {
		results[i] = make(chan T, 1)
	}
	var next atomic.Int64
	ahead := make(chan struct{}, 2*workers)
	var wg sync.WaitGroup
	for range min(workers, max(chunks, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ahead <- struct{}{}
				c := int(next.Add(1) - 1)
				if c >= chunks {
					<-ahead
					return
				}
				lo := c * size
				results[c] <- gen(lo, min(n, lo+size))
			}
		}()
	}
	var err error
	for c := range chunks {
		r := <-results[c]
		<-ahead
		if err == nil {
			err = emit(r)
		}
	}
	wg.Wait()
	return err
}
