"""The 3D view's legend and colour bars drawn from their picture look as drawn directly in the scene (painted by Qt
over an off-screen view's frames, or as a textured actor in the scene), and the picture is taken again only when
they or the view's size change, not while the frames are scrubbed."""
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper, vtkRenderWindow

from hybridgui.viewport import style
from hybridgui.viewport.legend import LegendLayer
from hybridgui.viewport.scene import Scene
from hybridgui.viewport.widget import OffscreenView, WindowReader
from tests.gui.conftest import differing

SIZE = (420, 320)
ENTRIES = [("ground reaction, measured (plate)", style.MEASURED), ("marker, recorded", style.EXPERIMENTAL_MARKER)]


def _scene(legend_in_overlay: bool) -> Scene:
    """A large coloured sphere filling the view (the legend's translucent backgrounds lie over it and over the
    background), with the legend box and two colour bars in the overlay's renderer or in the scene's own."""
    scene = Scene()
    sphere = vtkSphereSource()
    sphere.SetThetaResolution(48)
    sphere.SetPhiResolution(48)
    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(sphere.GetOutputPort())
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetColor(0.9, 0.4, 0.1)
    scene.renderer.AddActor(actor)
    scene.renderer.ResetCamera()
    scene.renderer.GetActiveCamera().Zoom(1.6)
    legend = LegendLayer(scene.overlay.renderer if legend_in_overlay else scene.renderer, ENTRIES, activations=True)
    legend.set_blade(style.bending_colours(10.0), "blade bending moment (N m)")
    return scene


def _offscreen_image(qtbot, scene):
    view = OffscreenView(scene)
    qtbot.addWidget(view)
    view.resize(*SIZE)
    image = view.image()
    view.shutdown()
    return image


def _assert_alike(image, reference):
    assert image.size() == reference.size()
    assert differing(image, reference).sum() <= 0.001 * image.width() * image.height()


def test_the_picture_painted_over_the_frames_looks_as_the_legend_drawn_in_the_scene(qtbot):
    direct = _offscreen_image(qtbot, _scene(legend_in_overlay=False))
    scene = _scene(legend_in_overlay=True)
    pictured = _offscreen_image(qtbot, scene)
    assert scene.overlay.pictures == 1 and not scene.overlay.in_scene
    _assert_alike(pictured, direct)
    bare = _scene(legend_in_overlay=True)
    bare.overlay.renderer.RemoveAllViewProps()
    assert differing(pictured, _offscreen_image(qtbot, bare)).sum() > 2000          # the legend is drawn at all


def test_the_picture_drawn_as_a_textured_actor_looks_as_the_legend_drawn_in_the_scene(qtbot):
    """The path of a view on screen: the picture, taken when its window starts rendering, drawn by OpenGL over the
    scene as straight-alpha texture tiles."""
    direct = _offscreen_image(qtbot, _scene(legend_in_overlay=False))
    scene = _scene(legend_in_overlay=True)
    window = vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetMultiSamples(0)
    window.AddRenderer(scene.renderer)
    window.SetSize(*SIZE)
    window.AddObserver("StartEvent", lambda w, _: scene.overlay.update(w.GetSize()))     # as InteractiveView
    window.Render()
    pictured = WindowReader(window).image()
    scene.overlay.shutdown()
    window.Finalize()
    assert scene.overlay.in_scene and scene.overlay.actor.GetVisibility() and scene.overlay.pictures == 1
    _assert_alike(pictured, direct)


def test_scrubbing_draws_the_picture_without_taking_it_again(shown, qtbot):
    window, doc = shown, shown.document
    view, overlay = window.view, window.scene.overlay
    window.set_blade_colouring("none")
    view.render()
    taken = overlay.pictures
    for frame in range(0, doc.n_frames, max(doc.n_frames // 12, 1)):
        doc.set_frame(frame)
        view.render()
    assert overlay.pictures == taken
    before = view.image()
    window.set_blade_colouring("bending moment")             # the blade's colour bar: a new picture, and it is drawn
    after = view.image()
    assert overlay.pictures == taken + 1
    assert differing(before, after).sum() > 500
    view.resize(view.width() - 40, view.height() - 30)       # a new size: a new picture of that size
    view.render()
    assert overlay.pictures == taken + 2
    assert (overlay.image.width(), overlay.image.height()) == (view.width(), view.height())
