package runner

import (
	"fmt"
	"reflect"
	"sort"
	"testing"
)

func keysN(prefix string, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, fmt.Sprintf("%s%02d.yaml", prefix, i))
	}
	return out
}

// TestShardsCoverEveryFileOnce: for any number of shards, the shards
// together hold every file exactly once, differ in size by at most one,
// and do not depend on the order the files were listed in.
func TestShardsCoverEveryFileOnce(t *testing.T) {
	for _, files := range [][]string{keysN("fault-", 25), keysN("a/", 7), keysN("x", 1), nil, {"same.yaml", "same.yaml", "other.yaml"}} {
		for n := 1; n <= 6; n++ {
			seen := make([]int, len(files))
			lo, hi := len(files), 0
			for k := 1; k <= n; k++ {
				part := InShard(files, k, n)
				lo, hi = min(lo, len(part)), max(hi, len(part))
				for _, i := range part {
					seen[i]++
				}
			}
			for i, c := range seen {
				if c != 1 {
					t.Errorf("%d files, %d shards: %s is in %d shards", len(files), n, files[i], c)
				}
			}
			if len(files) > 0 && hi-lo > 1 {
				t.Errorf("%d files, %d shards: sizes from %d to %d", len(files), n, lo, hi)
			}
			reversed := append([]string(nil), files...)
			sort.Sort(sort.Reverse(sort.StringSlice(reversed)))
			a, b := map[string]int{}, map[string]int{}
			for i, s := range Shards(files, n) {
				a[files[i]] = s
			}
			for i, s := range Shards(reversed, n) {
				b[reversed[i]] = s
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%d files, %d shards: the split depends on the files' order", len(files), n)
			}
		}
	}
}

// TestShardsStableWhenAFileIsAdded: adding a file to 25 moves at most two
// of the others to another shard (a split by position in the sorted list
// moves about half of them).
func TestShardsStableWhenAFileIsAdded(t *testing.T) {
	files := keysN("scenario-", 25)
	for n := 2; n <= 5; n++ {
		before := Shards(files, n)
		for add := 0; add < 30; add++ {
			after := Shards(append(append([]string(nil), files...), fmt.Sprintf("new-%d.yaml", add)), n)
			moved := 0
			for i := range files {
				if before[i] != after[i] {
					moved++
				}
			}
			if moved > 2 {
				t.Errorf("%d shards: adding new-%d.yaml moved %d of 25 files", n, add, moved)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		k, n int
		ok   bool
	}{{"1/1", 1, 1, true}, {"2/4", 2, 4, true}, {"0/4", 0, 0, false}, {"5/4", 0, 0, false}, {"4", 0, 0, false}, {"a/b", 0, 0, false}, {"1/0", 0, 0, false}} {
		k, n, err := ParseShard(c.in)
		if (err == nil) != c.ok || k != c.k || n != c.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v", c.in, k, n, err)
		}
	}
}
