// Copies the offscreen viewport image into egui's render pass. egui blends in gamma space
// on a non-sRGB target, so the linear image is encoded by hand there (`fs_encode`).

@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var image_sampler: sampler;

struct CompositeOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_composite(@builtin(vertex_index) index: u32) -> CompositeOut {
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: CompositeOut;
    out.clip = vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2<f32>(corner.x, 1.0 - corner.y);
    return out;
}

@fragment
fn fs_linear(in: CompositeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(textureSample(image, image_sampler, in.uv).rgb, 1.0);
}

fn encode_srgb(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}

@fragment
fn fs_encode(in: CompositeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(encode_srgb(textureSample(image, image_sampler, in.uv).rgb), 1.0);
}
