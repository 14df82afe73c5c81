//! Layer blending: the priority blend tree of `reference/animation-blending-article.txt`.
//!
//! Each layer asks for a weight per body DOF (the summed weights of its playing clips, at most
//! 1). From the highest layer down, a layer is granted its request times what remains, so a
//! layer at full weight hides everything below it on the bodies it animates and leaves the
//! rest of the body to lower layers. Additive layers then add their offsets from rest.

use crate::creature::Creature;
use crate::eval::Goals;
use glam::{Quat, Vec3};

/// One layer's weighted sums of goals this frame.
#[derive(Clone, Debug)]
pub(super) struct LayerAccum {
    pub layer: i32,
    pub additive: bool,
    position_sum: Vec<Vec3>,
    position_weight: Vec<f32>,
    rotation_sum: Vec<Quat>,
    rotation_weight: Vec<f32>,
    /// Per body, the body its goal is sent to touch ([`Goals::touch`]) by the clip that
    /// weighs most in the layer, and that weight.
    touch: Vec<(u32, f32)>,
    /// Whether anything was added this frame (an empty layer is skipped).
    pub used: bool,
}

impl LayerAccum {
    pub fn prefetch(&self) {
        use crate::shared::prefetch_lines;
        prefetch_lines(&self.position_sum);
        prefetch_lines(&self.position_weight);
        prefetch_lines(&self.rotation_sum);
        prefetch_lines(&self.rotation_weight);
    }

    pub fn new(layer: i32, additive: bool, bodies: usize) -> Self {
        LayerAccum {
            layer,
            additive,
            position_sum: vec![Vec3::ZERO; bodies],
            position_weight: vec![0.0; bodies],
            rotation_sum: vec![Quat::from_xyzw(0.0, 0.0, 0.0, 0.0); bodies],
            rotation_weight: vec![0.0; bodies],
            touch: vec![(u32::MAX, 0.0); bodies],
            used: false,
        }
    }

    pub fn clear(&mut self) {
        if self.used {
            self.position_sum.fill(Vec3::ZERO);
            self.position_weight.fill(0.0);
            self.rotation_sum.fill(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0));
            self.rotation_weight.fill(0.0);
            self.touch.fill((u32::MAX, 0.0));
            self.used = false;
        }
    }

    /// Adds one playing clip's goals at `weight`. Additive layers store offsets from rest.
    pub fn add(&mut self, creature: &Creature, goals: &Goals, weight: f32) {
        if weight <= 0.0 {
            return;
        }
        self.used = true;
        for b in goals.bodies() {
            let rest = creature.body(b);
            if let Some((p, gw)) = goals.position(b) {
                let w = weight * gw;
                let v = if self.additive { p - rest.position } else { p };
                self.position_sum[b] += v * w;
                self.position_weight[b] += w;
                if let Some(t) = goals.touch(b)
                    && w > self.touch[b].1
                {
                    self.touch[b] = (t as u32, w);
                }
            }
            if let Some((r, gw)) = goals.rotation(b) {
                let w = weight * gw;
                let v = if self.additive {
                    r * rest.rotation.inverse()
                } else {
                    r
                };
                let sum = self.rotation_sum[b];
                let v = if sum.dot(v) < 0.0 { -v } else { v };
                self.rotation_sum[b] = sum + v * w;
                self.rotation_weight[b] += w;
            }
        }
    }
}

/// Blends the layers (any order) into `out` (cleared first).
pub(super) fn blend_layers(creature: &Creature, layers: &mut [LayerAccum], out: &mut Goals) {
    out.clear();
    layers.sort_by_key(|l| (l.additive, std::cmp::Reverse(l.layer)));
    let n = creature.len();
    for b in 0..n {
        let mut remaining_p = 1.0f32;
        let mut sum_p = Vec3::ZERO;
        let mut remaining_r = 1.0f32;
        let mut sum_r = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        // The touch of the layer granted most of the position, as its weight share goes.
        let mut touch = (u32::MAX, 0.0f32);
        for l in layers.iter().filter(|l| l.used && !l.additive) {
            let w = l.position_weight[b];
            if w > 0.0 && remaining_p > 0.0 {
                let grant = w.min(1.0) * remaining_p;
                sum_p += l.position_sum[b] / w * grant;
                remaining_p -= grant;
                let (t, tw) = l.touch[b];
                let share = grant * tw / w;
                if t != u32::MAX && share > touch.1 {
                    touch = (t, share);
                }
            }
            let w = l.rotation_weight[b];
            if w > 0.0 && remaining_r > 0.0 {
                let grant = w.min(1.0) * remaining_r;
                if let Some(r) = normalized(l.rotation_sum[b]) {
                    let r = if sum_r.dot(r) < 0.0 { -r } else { r };
                    sum_r += r * grant;
                }
                remaining_r -= grant;
            }
        }
        let rest = creature.body(b);
        let (mut position, mut position_weight) = if remaining_p < 1.0 {
            (sum_p / (1.0 - remaining_p), 1.0 - remaining_p)
        } else {
            (rest.position, 0.0)
        };
        let (mut rotation, mut rotation_weight) = match normalized(sum_r) {
            Some(r) if remaining_r < 1.0 => (r, 1.0 - remaining_r),
            _ => (rest.rotation, 0.0),
        };
        for l in layers.iter().filter(|l| l.used && l.additive) {
            let w = l.position_weight[b];
            if w > 0.0 {
                // The summed offsets already carry their weights.
                position += l.position_sum[b];
                position_weight = position_weight.max(w.min(1.0));
            }
            let w = l.rotation_weight[b];
            if w > 0.0
                && let Some(delta) = normalized(l.rotation_sum[b])
            {
                rotation = (Quat::IDENTITY.slerp(delta, w.min(1.0)) * rotation).normalize();
                rotation_weight = rotation_weight.max(w.min(1.0));
            }
        }
        out.set_position(b, position, position_weight);
        out.set_rotation(b, rotation, rotation_weight);
        if touch.0 != u32::MAX && position_weight > 0.0 {
            out.set_touch(b, touch.0 as usize);
        }
    }
}

fn normalized(q: Quat) -> Option<Quat> {
    let len = q.length();
    (len.is_finite() && len > 1e-6).then(|| q / len)
}
