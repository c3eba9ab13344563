package runner

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ParseShard reads --shard K/N (1 <= K <= N).
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard %q: write it as K/N with 1 <= K <= N, e.g. 2/4", s)
	}
	return k, n, nil
}

// Shards splits files, named by keys (each file's path relative to the
// folder it was found in, so the split does not depend on where the
// repository is checked out), over n shards and returns each key's shard,
// 0 to n-1. Together the shards hold every key once; the split depends
// only on the keys, so every CI job computes the same one.
//
// It is rendezvous (highest random weight) hashing with bounded loads:
// each key ranks the shards by a hash of the key and the shard's number,
// and the keys, taken in the order of their own hash, each go to the
// first shard of their ranking that has room. Every shard holds n/N keys
// rounded down or up (balanced), and a key keeps its shard as files come
// and go unless the shard it ranks first fills up, so adding a file moves
// few others (stable), where a split by position in the sorted list moves
// most of them.
func Shards(keys []string, n int) []int {
	type item struct {
		i    int
		hash uint64
	}
	order := make([]item, len(keys))
	for i, k := range keys {
		order[i] = item{i, hash64(k)}
	}
	sort.Slice(order, func(a, b int) bool {
		if order[a].hash != order[b].hash {
			return order[a].hash < order[b].hash
		}
		if keys[order[a].i] != keys[order[b].i] {
			return keys[order[a].i] < keys[order[b].i]
		}
		return order[a].i < order[b].i
	})
	base, extra := len(keys)/n, len(keys)%n // extra shards hold base+1
	load := make([]int, n)
	bigger := 0
	out := make([]int, len(keys))
	ranks := make([]int, n)
	for _, it := range order {
		for s := range ranks {
			ranks[s] = s
		}
		k := keys[it.i]
		sort.Slice(ranks, func(a, b int) bool {
			return hash64(k+"\x00"+strconv.Itoa(ranks[a])) > hash64(k+"\x00"+strconv.Itoa(ranks[b]))
		})
		for _, s := range ranks {
			if load[s] < base || (load[s] == base && bigger < extra) {
				if load[s] == base {
					bigger++
				}
				load[s]++
				out[it.i] = s
				break
			}
		}
	}
	return out
}

// InShard lists the indices of the keys in shard k of n (k from 1), in
// their order.
func InShard(keys []string, k, n int) []int {
	var out []int
	for i, s := range Shards(keys, n) {
		if s == k-1 {
			out = append(out, i)
		}
	}
	return out
}

func hash64(s string) uint64 {
	h := sha256.Sum256([]byte(s))
	return binary.BigEndian.Uint64(h[:8])
}
