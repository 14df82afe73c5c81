//! Byte-level mutation: flipped bits, interesting bytes, inserted, deleted and duplicated
//! runs, truncation, invalid UTF-8, and splices with another file of the same kind.

use super::rand_util::{Rng, below, chance, pick};

const INTERESTING: &[u8] = b"\x00\xff\x7f\x80\"{}[],:0-9e.\n\\ ";

/// Applies one to four byte-level mutations; the result and what was done.
pub fn mutate_bytes(bytes: &[u8], rng: &mut Rng, donors: &[&[u8]]) -> (Vec<u8>, String) {
    let mut out = bytes.to_vec();
    let mut done = Vec::new();
    let rounds = 1 + below(rng, 4);
    for _ in 0..rounds {
        done.push(mutate_once(&mut out, rng, donors));
    }
    (out, done.join("; "))
}

fn mutate_once(out: &mut Vec<u8>, rng: &mut Rng, donors: &[&[u8]]) -> String {
    if out.is_empty() {
        out.extend_from_slice(b"{");
        return "became '{'".into();
    }
    let at = below(rng, out.len());
    match below(rng, 10) {
        0 | 1 => {
            let bit = below(rng, 8);
            out[at] ^= 1 << bit;
            format!("bit {bit} of byte {at} flipped")
        }
        2 | 3 => {
            let b = *pick(rng, INTERESTING);
            out[at] = b;
            format!("byte {at} = {b:#04x}")
        }
        4 => {
            let n = 1 + below(rng, 16);
            let run: Vec<u8> = (0..n).map(|_| *pick(rng, INTERESTING)).collect();
            out.splice(at..at, run);
            format!("{n} bytes inserted at {at}")
        }
        5 => {
            let n = 1 + below(rng, 64.min(out.len() - at));
            out.drain(at..at + n);
            format!("{n} bytes deleted at {at}")
        }
        6 => {
            let n = 1 + below(rng, 256.min(out.len() - at));
            let run = out[at..at + n].to_vec();
            let times = *pick(rng, &[1, 2, 8, 100]);
            for _ in 0..times {
                out.splice(at..at, run.iter().copied());
            }
            format!("{n} bytes at {at} repeated {times} more times")
        }
        7 => {
            out.truncate(at);
            format!("cut at byte {at}")
        }
        8 => {
            const BAD: [&[u8]; 4] = [b"\xc3\x28", b"\xff\xfe", b"\xed\xa0\x80", b"\xf0\x9f"];
            let bad: &&[u8] = pick(rng, &BAD);
            out.splice(at..at, bad.iter().copied());
            format!("invalid UTF-8 at {at}")
        }
        _ => {
            if let Some(donor) = donors.get(below(rng, donors.len().max(1)))
                && !donor.is_empty()
            {
                let from = below(rng, donor.len());
                let n = below(rng, (donor.len() - from).min(4096)) + 1;
                if chance(rng, 0.5) {
                    out.truncate(at);
                    out.extend_from_slice(&donor[from..]);
                    return format!("spliced: first {at} bytes, then another file from {from}");
                }
                out.splice(at..at, donor[from..from + n].iter().copied());
                return format!("{n} bytes of another file inserted at {at}");
            }
            out[at] = out[at].wrapping_add(1);
            format!("byte {at} incremented")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_mutation_changes_something_or_says_so() {
        for i in 0..500 {
            let mut rng = Rng::seed_from_u64(i);
            let seed = br#"{"a": [1, 2, 3], "b": "text"}"#;
            let (_, what) = mutate_bytes(seed, &mut rng, &[b"{\"c\": 4}"]);
            assert!(!what.is_empty());
        }
    }
}
