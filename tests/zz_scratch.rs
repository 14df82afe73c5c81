#![allow(clippy::unwrap_used, clippy::expect_used)]
use anymorph::runtime::player::{Character, PlayParams, VariantChoice};
use std::sync::Arc;
#[test]
fn scratch() {
    let c = Arc::new(anymorph::zoo::generate(1).unwrap());
    let clips = anymorph::samples::clips().unwrap();
    let clip = Arc::new(clips.into_iter().find(|c| c.name == "clap").unwrap());
    let mut ch = Character::new(Arc::clone(&c));
    ch.record_ik_debug(true);
    ch.play(
        &clip,
        PlayParams {
            variant: VariantChoice::Index(1),
            hold: true,
            ..Default::default()
        },
    )
    .unwrap();
    let h = c.bodies().iter().position(|b| b.name == "hand0_l").unwrap();
    for (i, b) in c.bodies().iter().enumerate() {
        print!(
            "{}({:?}) ",
            b.name,
            c.parent(i).map(|p| c.body(p).name.clone())
        );
    }
    println!();
    for f in 0..45 {
        let pose = ch.update(if f == 0 { 0.0 } else { 1.0 / 30.0 }).to_vec();
        let g = ch.goals().position(h).map(|p| p.0);
        let d = ch.ik_debug();
        if let Some(g) = g {
            println!(
                "f {f} err {:.4} limb {:.3} passes {:?} phase_err {:?}",
                g.distance(pose[h].position),
                c.limb_length(h),
                d.iterations,
                d.phase_error
            );
        }
    }
}
