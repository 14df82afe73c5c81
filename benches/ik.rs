//! Particle IK solve time per sample creature with a typical goal set (graspers, feet and
//! the head where present), and the 25-body biped side by side with two peers solving the
//! same serial chains toward the same goals: `k` (Jacobian) and `rebirth-ik` (FABRIK),
//! each with a fixed iteration budget. Final errors are printed before the timings.
//!
//! `CARGO_TARGET_DIR=/work/target-ik cargo bench --bench ik`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use anymorph::io::load_creature;
use anymorph::runtime::creature::{BodyId, Cap, Creature};
use anymorph::runtime::eval::Goals;
use anymorph::runtime::ik::{IkSolver, IkTuning};
use anymorph::runtime::pose::BodyPose;
use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// Iteration budgets of the peers: enough for each to converge on these chains.
const K_ITERATIONS: usize = 100;
const FABRIK_ITERATIONS: u32 = 10;

fn creatures() -> Vec<Creature> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_creatures");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".creature.json"))
        .collect();
    paths.sort();
    paths.iter().map(|p| load_creature(p).unwrap()).collect()
}

/// The goal bodies of the typical set: every grasper, every foot ending a leg, and the
/// head when it sits on the spine.
fn goal_bodies(c: &Creature) -> Vec<BodyId> {
    let mut v: Vec<BodyId> = (0..c.len())
        .filter(|&b| c.body(b).has_cap(&Cap::Grasper) && !c.is_spine(b))
        .collect();
    v.extend(c.legs().iter().map(|l| l.foot));
    if let Some(h) =
        (0..c.len()).find(|&b| c.is_spine(b) && c.body(b).has_cap(&Cap::Head) && b != c.root())
    {
        v.push(h);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Reachable 6-DOF goals: feet stepping up and forward (left and right out of phase),
/// graspers reaching forward and up, the head leaning forward and nodding.
fn typical_goals(c: &Creature) -> Goals {
    let mut g = Goals::new(c.len());
    for (i, b) in goal_bodies(c).into_iter().enumerate() {
        let body = c.body(b);
        let phase = if i % 2 == 0 { 1.0 } else { -1.0 };
        let (offset, turn) = if c.is_spine(b) {
            (
                Vec3::new(0.0, -0.02, 0.04) * c.size(),
                Quat::from_rotation_x(0.2),
            )
        } else if body.has_cap(&Cap::Foot) {
            let l = c.limb_length(b);
            (
                Vec3::new(0.0, 0.12 * l.max(0.0), 0.08 * phase * l),
                Quat::from_rotation_x(-0.15 * phase),
            )
        } else {
            let l = c.limb_length(b);
            (Vec3::new(0.0, 0.25, 0.3) * l, Quat::from_rotation_x(-0.3))
        };
        g.set_position(b, body.position + offset, 1.0);
        g.set_rotation(b, (turn * body.rotation).normalize(), 1.0);
    }
    g
}

/// Where a posed body's rest pivot went.
fn joint_of(c: &Creature, pose: &BodyPose, b: BodyId) -> Vec3 {
    let body = c.body(b);
    pose.position - pose.rotation * (body.rotation.inverse() * (body.position - c.pivot(b)))
}

/// The joint goal of a 6-DOF centre goal.
fn joint_goal(c: &Creature, g: &Goals, b: BodyId) -> Vec3 {
    let body = c.body(b);
    let (centre, _) = g.position(b).unwrap();
    let (rotation, _) = g.rotation(b).unwrap();
    centre - rotation * (body.rotation.inverse() * (body.position - c.pivot(b)))
}

/// Largest goal miss and largest relative length change of a limb bone (both ends off the
/// spine) and of a spine bone, in a solved pose.
fn our_errors(c: &Creature, g: &Goals, pose: &[BodyPose]) -> (f32, f32, f32) {
    let miss = g
        .bodies()
        .filter_map(|b| g.position(b).map(|(p, _)| pose[b].position.distance(p)))
        .fold(0.0, f32::max);
    let (mut limb, mut spine) = (0.0f32, 0.0f32);
    for b in 0..c.len() {
        let Some(p) = c.parent(b) else { continue };
        let rest = c.pivot(b).distance(c.pivot(p));
        if rest > 1e-4 {
            let len = joint_of(c, &pose[b], b).distance(joint_of(c, &pose[p], p));
            let e = (len / rest - 1.0).abs();
            if c.is_spine(b) && c.is_spine(p) {
                spine = spine.max(e);
            } else if !c.is_spine(p) {
                limb = limb.max(e);
            }
        }
    }
    (miss, limb, spine)
}

/// The serial chains the peers solve: joint positions from where the chain leaves its
/// fixed base (the spine attachment for a limb, the root's child for the head) to the goal
/// body's joint, and that joint's goal.
fn serial_chains(c: &Creature, g: &Goals) -> Vec<(Vec<Vec3>, Vec3)> {
    goal_bodies(c)
        .into_iter()
        .map(|b| {
            let mut bodies = vec![b];
            let mut at = b;
            while let Some(p) = c.parent(at) {
                let stop = if c.is_spine(b) {
                    p == c.root()
                } else {
                    c.is_spine(p)
                };
                if stop {
                    break;
                }
                bodies.push(p);
                at = p;
            }
            bodies.reverse();
            (
                bodies.iter().map(|&x| c.pivot(x)).collect(),
                joint_goal(c, g, b),
            )
        })
        .collect()
}

fn bone_error(points: &[Vec3], rest: &[Vec3]) -> f32 {
    points
        .windows(2)
        .zip(rest.windows(2))
        .map(|(p, r)| {
            let l = r[0].distance(r[1]);
            if l > 1e-4 {
                (p[0].distance(p[1]) / l - 1.0).abs()
            } else {
                0.0
            }
        })
        .fold(0.0, f32::max)
}

/// rebirth-ik: one FABRIK chain per goal.
struct Fabrik {
    chains: Vec<(Vec<rebirth_ik::Vec3>, Vec<f32>, rebirth_ik::Vec3)>,
    rest: Vec<Vec<rebirth_ik::Vec3>>,
}

fn rv(v: Vec3) -> rebirth_ik::Vec3 {
    rebirth_ik::Vec3::new(v.x, v.y, v.z)
}

fn gv(v: rebirth_ik::Vec3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

impl Fabrik {
    fn new(chains: &[(Vec<Vec3>, Vec3)]) -> Fabrik {
        let rest: Vec<Vec<rebirth_ik::Vec3>> = chains
            .iter()
            .map(|(p, _)| p.iter().map(|&x| rv(x)).collect())
            .collect();
        let chains = chains
            .iter()
            .zip(&rest)
            .map(|((_, goal), points)| {
                let mut lengths = vec![0.0; points.len().saturating_sub(1)];
                rebirth_ik::segment_lengths(points, &mut lengths);
                (points.clone(), lengths, rv(*goal))
            })
            .collect();
        Fabrik { chains, rest }
    }

    fn solve(&mut self) {
        for ((points, lengths, goal), rest) in self.chains.iter_mut().zip(&self.rest) {
            points.copy_from_slice(rest);
            rebirth_ik::solve_chain(points, lengths, *goal, FABRIK_ITERATIONS, 0.0);
        }
    }

    fn errors(&self) -> (f32, f32) {
        let mut miss = 0.0f32;
        let mut bone = 0.0f32;
        for ((points, _, goal), rest) in self.chains.iter().zip(&self.rest) {
            let p: Vec<Vec3> = points.iter().map(|&x| gv(x)).collect();
            let r: Vec<Vec3> = rest.iter().map(|&x| gv(x)).collect();
            miss = miss.max(p.last().unwrap().distance(gv(*goal)));
            bone = bone.max(bone_error(&p, &r));
        }
        (miss, bone)
    }
}

/// k: one serial chain of ball joints (three revolute joints each) per goal, solved for
/// position with its Jacobian solver.
struct Jacobian {
    arms: Vec<(k::SerialChain<f32>, k::nalgebra::Isometry3<f32>, usize)>,
    solver: k::JacobianIkSolver<f32>,
    constraints: k::Constraints,
}

impl Jacobian {
    fn new(chains: &[(Vec<Vec3>, Vec3)]) -> Jacobian {
        use k::nalgebra::{Isometry3, Translation3, Vector3};
        let arms = chains
            .iter()
            .map(|(points, goal)| {
                let mut nodes: Vec<k::Node<f32>> = Vec::new();
                for (i, p) in points.iter().enumerate() {
                    let from = if i == 0 { Vec3::ZERO } else { points[i - 1] };
                    let d = *p - from;
                    let last = i + 1 == points.len();
                    if last {
                        nodes.push(
                            k::NodeBuilder::new()
                                .name(&format!("end{i}"))
                                .joint_type(k::JointType::Fixed)
                                .translation(Translation3::new(d.x, d.y, d.z))
                                .finalize()
                                .into(),
                        );
                    } else {
                        for (a, axis) in [Vector3::x_axis(), Vector3::y_axis(), Vector3::z_axis()]
                            .into_iter()
                            .enumerate()
                        {
                            let t = if a == 0 { d } else { Vec3::ZERO };
                            nodes.push(
                                k::NodeBuilder::new()
                                    .name(&format!("j{i}_{a}"))
                                    .joint_type(k::JointType::Rotational { axis })
                                    .translation(Translation3::new(t.x, t.y, t.z))
                                    .finalize()
                                    .into(),
                            );
                        }
                    }
                }
                for w in nodes.windows(2) {
                    w[1].set_parent(&w[0]);
                }
                let arm = k::SerialChain::from_end(nodes.last().unwrap());
                let dof = arm.dof();
                (arm, Isometry3::translation(goal.x, goal.y, goal.z), dof)
            })
            .collect();
        Jacobian {
            arms,
            solver: k::JacobianIkSolver::new(1e-4, 1e-3, 0.5, K_ITERATIONS),
            constraints: k::Constraints {
                rotation_x: false,
                rotation_y: false,
                rotation_z: false,
                ..Default::default()
            },
        }
    }

    fn solve(&mut self) {
        use k::InverseKinematicsSolver;
        for (arm, goal, dof) in &self.arms {
            arm.set_joint_positions_unchecked(&vec![0.0; *dof]);
            // A solve that does not converge within the budget leaves the rest pose.
            let _ = self
                .solver
                .solve_with_constraints(arm, goal, &self.constraints);
        }
    }

    fn miss(&self) -> f32 {
        self.arms
            .iter()
            .map(|(arm, goal, _)| {
                arm.update_transforms();
                (arm.end_transform().translation.vector - goal.translation.vector).norm()
            })
            .fold(0.0, f32::max)
    }
}

fn bench(crit: &mut Criterion) {
    let all = creatures();
    let mut report = Vec::new();
    {
        let mut group = crit.benchmark_group("particle_ik");
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for c in &all {
            let goals = typical_goals(c);
            for debug in [false, true] {
                let tuning = IkTuning {
                    record_debug: debug,
                    ..IkTuning::default()
                };
                let mut solver = IkSolver::with_tuning(c, tuning);
                let mut out = Vec::new();
                solver.solve(c, &goals, &mut out);
                if debug {
                    let (miss, limb, spine) = our_errors(c, &goals, &out);
                    report.push(format!(
                        "{:<14} {:>3} bodies {:>2} goals  miss {:.2e} m  limb bones {:.2}%  spine bones {:.2}%  passes {:?}",
                        c.name(),
                        c.len(),
                        goals.bodies().count(),
                        miss,
                        limb * 100.0,
                        spine * 100.0,
                        solver.debug().iterations
                    ));
                }
                let name = format!("{}{}", c.name(), if debug { "+debug" } else { "" });
                group.bench_function(name, |b| {
                    b.iter(|| solver.solve(c, black_box(&goals), &mut out));
                });
            }
        }
        group.finish();
    }

    let biped = all.iter().find(|c| c.name() == "biped").unwrap();
    let goals = typical_goals(biped);
    let chains = serial_chains(biped, &goals);
    let mut ours = IkSolver::with_tuning(
        biped,
        IkTuning {
            record_debug: false,
            ..IkTuning::default()
        },
    );
    let mut out = Vec::new();
    ours.solve(biped, &goals, &mut out);
    let (our_miss, our_limb, our_spine) = our_errors(biped, &goals, &out);
    let mut fabrik = Fabrik::new(&chains);
    fabrik.solve();
    let (fabrik_miss, fabrik_bone) = fabrik.errors();
    let mut jacobian = Jacobian::new(&chains);
    jacobian.solve();
    let jacobian_miss = jacobian.miss();
    println!("\nparticle IK, typical goals (final error after one solve):");
    for line in &report {
        println!("  {line}");
    }
    println!(
        "\nbiped, {} serial chains ({} joints), the same goals:",
        chains.len(),
        chains.iter().map(|(p, _)| p.len()).sum::<usize>()
    );
    println!(
        "  anymorph particle IK (whole creature): miss {our_miss:.2e} m, limb bones {:.2}%, spine bones {:.2}%",
        our_limb * 100.0,
        our_spine * 100.0
    );
    println!(
        "  rebirth-ik FABRIK, {FABRIK_ITERATIONS} iterations: miss {fabrik_miss:.2e} m, bone {:.2}%",
        fabrik_bone * 100.0
    );
    println!(
        "  k Jacobian, up to {K_ITERATIONS} iterations: miss {jacobian_miss:.2e} m, bone 0% (joint angles)\n"
    );

    let mut group = crit.benchmark_group("biped_vs_peers");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    group.bench_function("anymorph_particle_ik", |b| {
        b.iter(|| ours.solve(biped, black_box(&goals), &mut out));
    });
    group.bench_function("rebirth_ik_fabrik", |b| b.iter(|| fabrik.solve()));
    group.sample_size(20);
    group.bench_function("k_jacobian", |b| b.iter(|| jacobian.solve()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
