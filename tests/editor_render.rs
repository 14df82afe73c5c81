//! The renderer with no window and no egui: a scene to an image on the CPU adapter.
#![cfg(feature = "editor")]

use anymorph::render::{BodyInstance, Camera, Ground, LineSegment, OffscreenRenderer, Scene};
use anymorph::runtime::creature::Shape;
use anymorph::runtime::math::Aabb;
use eframe::egui_wgpu::wgpu;
use glam::{Quat, Vec3};

fn body(shape: Shape, x: f32) -> BodyInstance {
    BodyInstance {
        position: Vec3::new(x, 0.5, 0.0),
        rotation: Quat::IDENTITY,
        half_extents: Vec3::new(0.2, 0.4, 0.2),
        shape,
        color: [0.8, 0.2, 0.2],
        hovered: false,
        selected: false,
    }
}

fn scene() -> Scene {
    let bodies = vec![
        body(Shape::Box, -0.8),
        body(Shape::Capsule, 0.0),
        body(Shape::Sphere, 0.8),
    ];
    Scene {
        camera: Camera {
            eye: Vec3::new(0.0, 1.0, 4.0),
            target: Vec3::new(0.0, 0.5, 0.0),
            ..Camera::default()
        },
        ground: Some(Ground::around(
            Aabb::from_points([Vec3::splat(-1.0), Vec3::splat(1.0)]),
            0.0,
        )),
        overlay: vec![LineSegment::new(
            Vec3::new(-1.0, 1.5, 0.0),
            Vec3::new(1.0, 1.5, 0.0),
            [0.0, 1.0, 0.0, 1.0],
            4.0,
        )],
        bodies,
        ..Scene::default()
    }
}

#[test]
fn bodies_ground_and_lines_reach_the_image() {
    let mut renderer =
        OffscreenRenderer::with_backends(4, wgpu::Backends::GL).expect("Mesa's llvmpipe");
    eprintln!("adapter: {}", renderer.adapter_name());
    let (w, h) = (320, 200);
    let image = renderer.render(&scene(), w, h).unwrap();
    assert_eq!(image.dimensions(), (w, h));
    if let Ok(dir) = std::env::var("ANYMORPH_DEBUG_PNG") {
        image
            .save(std::path::Path::new(&dir).join("editor_render.png"))
            .unwrap();
    }
    let camera = scene().camera;
    let size = glam::Vec2::new(w as f32, h as f32);
    let pixel = |p: Vec3| {
        let (px, _) = camera.world_to_pixel(p, size).unwrap();
        *image.get_pixel(px.x as u32, px.y as u32)
    };
    // Each body's centre is reddish: lit red, not the grey backdrop.
    for x in [-0.8, 0.0, 0.8] {
        let c = pixel(Vec3::new(x, 0.5, 0.2));
        assert!(c[0] > c[1] + 40 && c[0] > c[2] + 40, "body at {x}: {c:?}");
    }
    // The overlay line is green.
    let c = pixel(Vec3::new(0.5, 1.5, 0.0));
    assert!(c[1] > 200 && c[0] < 100, "line: {c:?}");
    // The top-left corner is the dark backdrop; the ground near the bodies is lighter.
    let sky = *image.get_pixel(2, 2);
    let ground = pixel(Vec3::new(0.4, 0.0, 0.8));
    assert!(ground[0] > sky[0], "ground {ground:?} sky {sky:?}");
}

#[test]
fn a_png_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("thumb.png");
    let mut renderer = OffscreenRenderer::with_backends(1, wgpu::Backends::GL).unwrap();
    renderer.render_png(&scene(), 64, 48, &path).unwrap();
    let back = image::open(&path).unwrap();
    assert_eq!((back.width(), back.height()), (64, 48));
}

/// An imported rig at rest (bodies as proxies, or not) with its skinned mesh, framed.
fn rig_scene(
    rig: &anymorph::io::gltf::ImportedRig,
    mesh: Option<std::sync::Arc<anymorph::io::gltf::SkinnedMesh>>,
    pose: &[anymorph::runtime::pose::BodyPose],
    show_bodies: bool,
) -> Scene {
    use anymorph::render::SkinnedInstance;
    let creature = &rig.creature;
    let bodies = creature
        .bodies()
        .iter()
        .zip(pose)
        .map(|(b, p)| BodyInstance::posed(b, p, [0.2, 0.2, 0.9]))
        .collect();
    let meshes = mesh
        .map(|mesh| {
            let mut joint_matrices = Vec::new();
            mesh.skin_matrices(pose, &mut joint_matrices);
            vec![SkinnedInstance {
                mesh,
                joint_matrices,
                color: [0.9, 0.3, 0.2, 1.0],
            }]
        })
        .unwrap_or_default();
    let bounds = creature.bounds();
    let center = bounds.center();
    Scene {
        camera: Camera {
            eye: center + Vec3::new(0.0, 0.2, 3.2) * creature.size(),
            target: center,
            ..Camera::default()
        },
        bodies,
        hidden_bodies: vec![!show_bodies; creature.len()],
        meshes,
        ..Scene::default()
    }
}

fn rest_pose(
    creature: &anymorph::runtime::creature::Creature,
) -> Vec<anymorph::runtime::pose::BodyPose> {
    creature
        .bodies()
        .iter()
        .map(|b| anymorph::runtime::pose::BodyPose::new(b.position, b.rotation))
        .collect()
}

fn reddish(image: &image::RgbaImage) -> usize {
    image
        .pixels()
        .filter(|p| i32::from(p[0]) > i32::from(p[2]) + 40)
        .count()
}

fn differing_pixels(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    a.pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 24))
        .count()
}

#[test]
fn a_skinned_mesh_is_drawn_uploaded_once_and_follows_the_pose() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gltf/humanoid.glb");
    let rig = anymorph::io::gltf::import_rig(&path).unwrap();
    let mesh = std::sync::Arc::new(rig.mesh.clone().expect("the humanoid has a mesh"));
    let rest = rest_pose(&rig.creature);
    let mut renderer = OffscreenRenderer::with_backends(1, wgpu::Backends::GL).unwrap();
    let (w, h) = (200, 240);

    // Proxies hidden: without the mesh nothing but the backdrop; with it, a red figure.
    let empty = renderer
        .render(&rig_scene(&rig, None, &rest, false), w, h)
        .unwrap();
    assert_eq!(renderer.stats().skinned_draws, 0);
    let scene = rig_scene(&rig, Some(mesh.clone()), &rest, false);
    let drawn = renderer.render(&scene, w, h).unwrap();
    let stats = renderer.stats();
    assert_eq!((stats.skinned_draws, stats.bodies), (1, 0), "{stats:?}");
    if let Ok(dir) = std::env::var("ANYMORPH_DEBUG_PNG") {
        drawn
            .save(std::path::Path::new(&dir).join("skinned.png"))
            .unwrap();
    }
    let covered = differing_pixels(&empty, &drawn);
    assert!(covered > 1500, "the mesh covers {covered} pixels");
    // What it covers is the mesh's lit red.
    let red = reddish(&drawn);
    assert!(red * 10 > covered * 8, "{red} red of {covered} covered");
    // Drawn again: the vertices stay on the GPU, only the joints move.
    let mut posed = rest.clone();
    let root = rig.creature.root();
    for p in &mut posed {
        // The whole figure lies down, turned about the root.
        let about = rest[root].position;
        let turn = glam::Quat::from_rotation_z(1.2);
        p.position = about + turn * (p.position - about);
        p.rotation = turn * p.rotation;
    }
    let moved = renderer
        .render(&rig_scene(&rig, Some(mesh.clone()), &posed, false), w, h)
        .unwrap();
    assert_eq!(renderer.stats().skinned_uploads, 1);
    assert_eq!(renderer.stats().skinned_meshes_resident, 1);
    let changed = differing_pixels(&drawn, &moved);
    assert!(changed > 1000, "posing changed {changed} pixels");

    // With the proxies on, a translucent skin still shows where it is outside them.
    let proxies = renderer
        .render(&rig_scene(&rig, None, &rest, true), w, h)
        .unwrap();
    assert!(renderer.stats().bodies > 0);
    let mut ghost = rig_scene(&rig, Some(mesh.clone()), &rest, true);
    ghost.meshes[0].color[3] = 0.5;
    let both = renderer.render(&ghost, w, h).unwrap();
    assert_eq!(renderer.stats().skinned_draws, 1);
    let shown = differing_pixels(&proxies, &both);
    assert!(
        shown > 200,
        "the skin changed {shown} pixels over the proxies"
    );

    // A mesh no longer in any scene is dropped from the GPU.
    drop((mesh, scene, ghost));
    renderer
        .render(&rig_scene(&rig, None, &rest, false), w, h)
        .unwrap();
    assert_eq!(renderer.stats().skinned_meshes_resident, 0);
}
