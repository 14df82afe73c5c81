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
