package ann

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
)

// The file form of a graph: a header (magic, version, dims, node count,
// entry, top layer, level seed, a caller's stamp), then per node its id,
// whether it is dead, its scale, its components, its attributes (AddMeta;
// from version 2: a file of version 1 is refused, so its graphs are rebuilt
// from the stored records, with their attributes), its links per layer and
// (from version 3) the linked node it is a satellite of, or -1; then a
// CRC-32 of everything before it. Little-endian throughout. A file of
// version 2 is read with every node linked (its copies stay linked; new
// ones become satellites).
const (
	magic       = "RWANN"
	fileVersion = 3
	maxIDLen    = 1 << 16
	maxMetaLen  = 1 << 20
)

// WriteTo writes the graph with stamp (what the caller uses to tell whether
// the file is current, Read returns it).
func (g *Graph) WriteTo(w io.Writer, stamp uint64) error {
	return g.writeVersion(w, stamp, fileVersion)
}

// writeVersion writes the file of version (2: without satellites, for the
// test of reading one; a graph with satellites is refused).
func (g *Graph) writeVersion(w io.Writer, stamp uint64, version uint32) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if version < 3 && len(g.sats) > 0 {
		return errors.New("ann: a graph with satellites in a version 2 file")
	}
	h := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<16)
	var buf [8]byte
	u32 := func(v uint32) { binary.LittleEndian.PutUint32(buf[:4], v); bw.Write(buf[:4]) }
	u64 := func(v uint64) { binary.LittleEndian.PutUint64(buf[:], v); bw.Write(buf[:]) }
	// each node's linked node when it is a satellite, else -1
	reps := make([]int32, len(g.ids))
	for n := range reps {
		reps[n] = -1
	}
	for r, ss := range g.sats {
		for _, s := range ss {
			reps[s] = r
		}
	}
	bw.WriteString(magic)
	u32(version)
	u32(uint32(g.dims))
	u32(uint32(len(g.ids)))
	u32(uint32(g.entry))
	u32(uint32(g.top))
	u64(g.seed)
	u64(stamp)
	for n, id := range g.ids {
		if len(id) >= maxIDLen {
			return fmt.Errorf("ann: id of %d bytes", len(id))
		}
		u32(uint32(len(id)))
		bw.WriteString(id)
		var dead uint32
		if g.dead[n] {
			dead = 1
		}
		u32(dead)
		u32(math.Float32bits(g.scales[n]))
		for _, v := range g.vec(int32(n)) {
			bw.WriteByte(byte(v))
		}
		meta := g.meta(int32(n))
		if len(meta) >= maxMetaLen {
			return fmt.Errorf("ann: attributes of %d bytes", len(meta))
		}
		u32(uint32(len(meta)))
		bw.Write(meta)
		u32(uint32(len(g.links[n])))
		for _, ls := range g.links[n] {
			u32(uint32(len(ls)))
			for _, x := range ls {
				u32(uint32(x))
			}
		}
		if version >= 3 {
			u32(uint32(reps[n]))
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(buf[:4], h.Sum32())
	_, err := w.Write(buf[:4])
	return err
}

// ErrCorrupt is a file that is not a whole graph.
var ErrCorrupt = errors.New("ann: not a whole index file")

// Read reads a graph WriteTo wrote and the stamp it was written with.
func Read(r io.Reader) (*Graph, uint64, error) {
	h := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 1<<16)
	tr := io.TeeReader(br, h)
	var buf [8]byte
	var err error
	u32 := func() uint32 {
		if err != nil {
			return 0
		}
		_, err = io.ReadFull(tr, buf[:4])
		return binary.LittleEndian.Uint32(buf[:4])
	}
	u64 := func() uint64 {
		if err != nil {
			return 0
		}
		_, err = io.ReadFull(tr, buf[:])
		return binary.LittleEndian.Uint64(buf[:])
	}
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(tr, head); err != nil || string(head) != magic {
		return nil, 0, ErrCorrupt
	}
	version := u32()
	if version != fileVersion && version != 2 {
		return nil, 0, ErrCorrupt
	}
	dims, count := int(u32()), int(u32())
	entry, top := int32(u32()), int(u32())
	seed, stamp := u64(), u64()
	if err != nil || dims <= 0 || dims > 1<<16 || top > maxLevel {
		return nil, 0, ErrCorrupt
	}
	g := New(dims)
	g.entry, g.top, g.seed = entry, top, seed
	g.ids = make([]string, 0, count)
	reps := make([]int32, 0, count)
	g.vecs = make([]int8, 0, count*dims)
	vec := make([]byte, dims)
	for n := 0; n < count && err == nil; n++ {
		l := u32()
		if err != nil || l >= maxIDLen {
			return nil, 0, ErrCorrupt
		}
		id := make([]byte, l)
		if _, err = io.ReadFull(tr, id); err != nil {
			break
		}
		dead := u32() == 1
		scale := math.Float32frombits(u32())
		if _, e := io.ReadFull(tr, vec); e != nil && err == nil {
			err = e
		}
		var meta []byte
		if ml := u32(); err == nil && ml >= maxMetaLen {
			return nil, 0, ErrCorrupt
		} else if err == nil && ml > 0 {
			meta = make([]byte, ml)
			_, err = io.ReadFull(tr, meta)
		}
		layers := int(u32())
		if err != nil || layers > maxLevel+1 {
			return nil, 0, ErrCorrupt
		}
		links := make([][]int32, layers)
		for li := range links {
			m := int(u32())
			if m > 3*M+1 {
				return nil, 0, ErrCorrupt
			}
			links[li] = make([]int32, m)
			for i := range links[li] {
				links[li][i] = int32(u32())
			}
		}
		rep := int32(-1)
		if version >= 3 {
			rep = int32(u32())
		}
		g.ids = append(g.ids, string(id))
		for _, b := range vec {
			g.vecs = append(g.vecs, int8(b))
		}
		g.scales = append(g.scales, scale)
		g.metaBuf = append(g.metaBuf, meta...)
		g.metaEnd = append(g.metaEnd, uint32(len(g.metaBuf)))
		g.links = append(g.links, links)
		reps = append(reps, rep)
		g.dead = append(g.dead, dead)
		if dead {
			g.ndead++
		} else {
			g.byID[string(id)] = int32(n)
		}
	}
	if err != nil {
		return nil, 0, ErrCorrupt
	}
	sum := h.Sum32()
	if _, err := io.ReadFull(br, buf[:4]); err != nil || binary.LittleEndian.Uint32(buf[:4]) != sum {
		return nil, 0, ErrCorrupt
	}
	if count > 0 && (entry < 0 || int(entry) >= count) || count == 0 && entry != -1 {
		return nil, 0, ErrCorrupt
	}
	for n, ls := range g.links {
		for _, l := range ls {
			for _, x := range l {
				if x < 0 || int(x) >= count || reps[x] != -1 {
					return nil, 0, ErrCorrupt
				}
			}
		}
		// a linked node has a layer, a satellite none and a linked node
		r := reps[n]
		if r == -1 && len(ls) == 0 || r != -1 && (len(ls) != 0 || r < 0 || int(r) >= count || reps[r] != -1) {
			return nil, 0, ErrCorrupt
		}
	}
	if count > 0 && reps[entry] != -1 {
		return nil, 0, ErrCorrupt
	}
	for n := range g.ids {
		if r := reps[n]; r != -1 {
			g.sats[r] = append(g.sats[r], int32(n))
			continue
		}
		h := g.vecHash(g.vec(int32(n)), g.scales[n])
		if _, held := g.byVec[h]; !held { // the first of linked copies (a version 2 file)
			g.byVec[h] = int32(n)
		}
	}
	for r, ss := range g.sats {
		slices.SortFunc(ss, func(a, b int32) int { return cmp.Compare(g.ids[a], g.ids[b]) })
		g.sats[r] = ss
	}
	return g, stamp, nil
}
