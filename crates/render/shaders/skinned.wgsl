// Skinned meshes (a creature imported from glTF): linear blend skinning on the GPU. The
// vertex buffer is uploaded once per mesh; per frame only the joint matrices change.
// render/gpu_types.rs `SkinnedVertex` and `SkinUniforms` mirror these layouts.

// One joint matrix per body: world from the body's rest frame, times the inverse bind.
// 255 joints keep the block under the 16 KiB a uniform binding may hold everywhere
// (WebGL2-class limits, which the GL backend and the offscreen renderer ask for).
const MAX_JOINTS: u32 = 255u;

struct Skin {
    // rgb: linear base colour; a: opacity (below 1 the proxies show through).
    color: vec4<f32>,
    joints: array<mat4x4<f32>, 255>,
};

@group(1) @binding(0) var<uniform> skin: Skin;

struct SkinnedIn {
    // Character space at rest.
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // Up to four bodies and their weights (summing to 1).
    @location(2) joints: vec4<u32>,
    @location(3) weights: vec4<f32>,
};

struct SkinnedOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
};

fn joint(index: u32) -> mat4x4<f32> {
    // A bad index reads a real (if wrong) matrix rather than relying on the driver's
    // robustness for out-of-bounds uniform reads.
    return skin.joints[min(index, MAX_JOINTS - 1u)];
}

@vertex
fn vs_skinned(v: SkinnedIn) -> SkinnedOut {
    let m = joint(v.joints.x) * v.weights.x
        + joint(v.joints.y) * v.weights.y
        + joint(v.joints.z) * v.weights.z
        + joint(v.joints.w) * v.weights.w;
    let world = (m * vec4<f32>(v.position, 1.0)).xyz;
    // Joint matrices are rigid (rotation and translation), so the blended upper 3×3 turns
    // normals well enough; the fragment shader renormalizes.
    let normal = (m * vec4<f32>(v.normal, 0.0)).xyz;
    var out: SkinnedOut;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = normal;
    return out;
}

@fragment
fn fs_skinned(in: SkinnedOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    // Rigs are not always closed or consistently wound: light the side we see.
    // A zero normal (a degenerate triangle's vertex) would normalize to NaN.
    let len = length(in.normal);
    var n = select(vec3<f32>(0.0, 1.0, 0.0), in.normal / len, len > 1e-6);
    if (!front) {
        n = -n;
    }
    return vec4<f32>(shade(skin.color.rgb, n, in.world), skin.color.a);
}
