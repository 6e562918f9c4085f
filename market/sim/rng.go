package sim

import (
	"hash/fnv"
	"math"
)

// mix is splitmix64's finaliser: a strong 64-bit hash step.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// key derives the seed of one random stream from its coordinates. Streams are addressed, not
// consumed in sequence, so any day or minute of any symbol can be generated on its own and always
// comes out the same: that is what makes history, restarts and several server instances agree.
func key(parts ...uint64) uint64 {
	h := uint64(0x5eed)
	for _, p := range parts {
		h = mix(h ^ p)
	}
	return h
}

func codeHash(code string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(code))
	return h.Sum64()
}

// Purposes of the streams.
const (
	pMarket uint64 = iota + 1
	pClose
	pBar
	pPath
	pMinute
	pBook
	pParams
	pRegime
)

// rng is a splitmix64 stream: tiny, allocation-free, good enough for simulation.
type rng struct{ s uint64 }

func newRNG(k uint64) rng { return rng{s: k} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float is uniform in (0, 1).
func (r *rng) float() float64 { return (float64(r.next()>>11) + 0.5) / (1 << 53) }

// intn is uniform in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// quantiles of the standard normal distribution at (i+½)/len, for norm. Inverting the
// distribution by table costs one lookup instead of a logarithm, a root and a cosine; the tails end
// near ±3.7σ, and fat widens them where the model needs it.
var quantiles = func() []float64 {
	q := make([]float64, 4096)
	for i := range q {
		q[i] = math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/float64(len(q))-1)
	}
	return q
}()

// norm is a standard normal number: the quantile table, linearly interpolated.
func (r *rng) norm() float64 { return r.lookup(quantiles) }

// lookup draws from the distribution whose quantile table is q, linearly interpolated.
func (r *rng) lookup(q []float64) float64 {
	x := r.float() * float64(len(q)-1)
	i := int(x)
	f := x - float64(i)
	return q[i] + f*(q[i+1]-q[i])
}

// logNormal is the quantile table of exp(s·z + m), z standard normal: drawing from it costs no
// exponential.
func logNormal(s, m float64) []float64 {
	q := make([]float64, len(quantiles))
	for i, z := range quantiles {
		q[i] = math.Exp(s*z + m)
	}
	return q
}

// fat is a normal number with fatter tails: one draw in twenty has 2.5 times the spread.
func (r *rng) fat() float64 {
	z := r.norm()
	if r.float() < 0.05 {
		z *= 2.5
	}
	return z
}
