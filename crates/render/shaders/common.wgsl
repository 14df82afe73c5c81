// Shared by every scene shader: the per-frame uniforms (render/gpu_types.rs `FrameUniforms`).
// Colours are linear; the offscreen target is sRGB, so the hardware encodes on write.

struct Frame {
    clip_from_world: mat4x4<f32>,
    // xyz: the eye in world space.
    eye: vec4<f32>,
    // xyz: unit vector toward the key light.
    light_dir: vec4<f32>,
    // width, height, 1 / width, 1 / height of the target in pixels.
    viewport: vec4<f32>,
    // ground height, grid cell size, fade radius, cells per major line.
    ground: vec4<f32>,
    // xz: centre of the ground disc.
    ground_center: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;

// Rotates `v` by the unit quaternion `q` (xyzw).
fn rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}
