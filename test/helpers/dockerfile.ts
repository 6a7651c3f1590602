// Performs a Dockerfile's steps without Docker (none runs on these machines):
// the Dockerfile is parsed with dockerfile-ast, and a stage's WORKDIR, ENV,
// COPY and RUN instructions are carried out as written in a directory that
// stands for the image's root file system. RUN lines run with `sh -c` in
// the working directory, so they must not use absolute paths (they would
// reach the host's). Stages named in `prebuilt` are not run: their files are
// taken from a directory of this machine (the build stage's /app is this
// repository with its dist/ already built). Anything this does not know
// how to perform (ADD, SHELL, ENTRYPOINT, a COPY flag other than --from and
// --chown) fails, so a Dockerfile change is met here before it ships.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix, relative } from 'node:path';
import { promisify } from 'node:util';
import dockerfileAst, { type Copy, type Dockerfile, type Env, type Instruction } from 'dockerfile-ast';

// a CommonJS package: its classes through the default export
const { DockerfileParser, From } = dockerfileAst;
const run = promisify(execFile);

export interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

export interface PerformedStage {
  /** the directory standing for the stage's root file system */
  root: string;
  /** the last WORKDIR (absolute, in the image) */
  workdir: string;
  /** ENV of the stage, in order */
  env: Record<string, string>;
  /** USER, if set */
  user: string | null;
}

export function stagesOf(dockerfile: Dockerfile): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction instanceof From) {
      const name = instruction.getBuildStage() ?? String(stages.length);
      stages.push({ name, image: instruction.getImage() ?? '', instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

export function parseDockerfile(text: string): Dockerfile {
  return DockerfileParser.parse(text);
}

/** The image path `path` of a prebuilt stage: `dir` stands for that stage's `workdir`. */
export interface Prebuilt {
  dir: string;
  workdir: string;
}

export class DockerfileRunner {
  private readonly performed = new Map<string, Promise<PerformedStage>>();
  private readonly made: string[] = [];

  constructor(
    private readonly stages: Stage[],
    /** the build context (`COPY` without --from reads from it) */
    private readonly context: string,
    private readonly prebuilt: Record<string, Prebuilt>,
    /** extra environment for RUN lines (the npm cache…), never changing what they do */
    private readonly runEnv: Record<string, string> = {},
  ) {}

  /** The directories made for the stages performed (the caller removes them). */
  roots(): string[] {
    return [...this.made];
  }

  /** Performs stage `name` (and the stages it copies from) in a fresh directory each. */
  perform(name: string): Promise<PerformedStage> {
    let done = this.performed.get(name);
    if (!done) {
      done = this.performStage(name);
      this.performed.set(name, done);
    }
    return done;
  }

  private async performStage(name: string): Promise<PerformedStage> {
    const stage = this.stages.find((s) => s.name === name);
    if (!stage) throw new Error(`no stage ${name}`);
    const state: PerformedStage = {
      root: mkdtempSync(join(tmpdir(), `wallery-image-${name}-`)),
      workdir: '/',
      env: {},
      user: null,
    };
    this.made.push(state.root);
    for (const instruction of stage.instructions) await this.step(state, instruction);
    return state;
  }

  private at(state: PerformedStage, imagePath: string): string {
    return join(state.root, posix.resolve(state.workdir, imagePath));
  }

  private async step(state: PerformedStage, instruction: Instruction): Promise<void> {
    const keyword = instruction.getKeyword();
    const args = instruction.getArguments().map((a) => a.getValue());
    switch (keyword) {
      case 'WORKDIR':
        state.workdir = posix.resolve(state.workdir, args[0]!);
        mkdirSync(this.at(state, '.'), { recursive: true });
        return;
      case 'ENV':
        for (const p of (instruction as Env).getProperties()) state.env[p.getName()] = p.getValue() ?? '';
        return;
      case 'USER':
        state.user = args[0] ?? null;
        return;
      case 'COPY':
        await this.copy(state, instruction as Copy);
        return;
      case 'RUN': {
        const command = instruction.getRawArgumentsContent() ?? '';
        await run('sh', ['-c', command], {
          cwd: this.at(state, '.'),
          env: { ...process.env, ...state.env, ...this.runEnv },
          maxBuffer: 64 * 1024 * 1024,
        });
        return;
      }
      // what the image declares, not a step that makes files
      case 'VOLUME':
      case 'EXPOSE':
      case 'HEALTHCHECK':
      case 'CMD':
      case 'LABEL':
        return;
      default:
        throw new Error(
          `test/helpers/dockerfile.ts cannot perform ${keyword} (line ${instruction.getRange().start.line + 1})`,
        );
    }
  }

  private async copy(state: PerformedStage, instruction: Copy): Promise<void> {
    const flags = instruction.getFlags();
    let from: string | null = null;
    for (const flag of flags) {
      if (flag.getName() === 'from') from = flag.getValue();
      // ownership cannot be given here (no `node` user); the test checks the flag itself
      else if (flag.getName() !== 'chown') throw new Error(`COPY --${flag.getName()} is not performed here`);
    }
    const paths = instruction
      .getArguments()
      .map((a) => a.getValue())
      .filter((v) => !v.startsWith('--'));
    const dest = paths.pop()!;
    const prebuilt = from === null ? undefined : this.prebuilt[from];
    const stage = from === null || prebuilt ? null : await this.perform(from);
    const source = (path: string): string => {
      if (prebuilt) return join(prebuilt.dir, relative(prebuilt.workdir, path));
      if (stage) return join(stage.root, path);
      return join(this.context, path);
    };
    const target = this.at(state, dest);
    for (const path of paths) {
      const src = source(path);
      if (!existsSync(src)) throw new Error(`COPY: ${path} not found (${src})`);
      if (statSync(src).isDirectory()) {
        // a directory's contents go into the destination
        cpSync(src, target, { recursive: true });
      } else {
        const into = dest.endsWith('/') || paths.length > 1;
        mkdirSync(into ? target : join(target, '..'), { recursive: true });
        cpSync(src, into ? join(target, basename(src)) : target);
      }
    }
  }
}
