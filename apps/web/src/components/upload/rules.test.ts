import { describe, expect, it } from 'vitest';
import { acceptAttr, checkChosenFiles, checkContent } from './rules';
import { fileOf } from './testkit';

const f = (name: string, size = 100) => ({ name, size });
const TYPE = { annexName: '执业资格证书', annexFormat: 'pdf,jpg,png', annexSize: 10 };

describe('checks before sending (§5)', () => {
  it('accepts jpg, png, jpeg, jpe, webp and pdf; anything else: 请上传图片或PDF文件', () => {
    for (const ok of ['a.jpg', 'a.PNG', 'a.jpeg', 'a.jpe', 'a.webp', '说明.pdf']) {
      expect(checkChosenFiles([f(ok)], { existing: 0 })).toBeNull();
    }
    for (const bad of ['a.exe', 'a.gif', 'a.docx', 'noext', 'a.png.exe']) {
      expect(checkChosenFiles([f(bad)], { existing: 0 })).toBe('请上传图片或PDF文件');
    }
    expect(checkChosenFiles([f('空.png', 0)], { existing: 0 })).toBe('不能上传空文件');
  });

  it('at most 3 files by default, counting those held already; another limit when given', () => {
    expect(checkChosenFiles([f('1.png'), f('2.png'), f('3.png')], { existing: 0 })).toBeNull();
    expect(checkChosenFiles([f('1.png'), f('2.png'), f('3.png'), f('4.png')], { existing: 0 })).toBe(
      '最多只能上传3个文件',
    );
    expect(checkChosenFiles([f('3.png')], { existing: 2 })).toBeNull();
    expect(checkChosenFiles([f('4.png')], { existing: 3 })).toBe('最多只能上传3个文件');
    expect(checkChosenFiles([f('2.png')], { existing: 1, max: 1 })).toBe('最多只能上传1个文件');
  });

  it('typed attachments: name at most 64 characters, the type’s formats, the type’s MB', () => {
    const name64 = `${'证'.repeat(60)}.pdf`;
    expect(checkChosenFiles([f(name64)], { existing: 0, type: TYPE })).toBeNull();
    expect(checkChosenFiles([f(`${'证'.repeat(61)}.pdf`)], { existing: 0, type: TYPE })).toBe(
      '文件名超过64位字符，请重新命名后上传！',
    );
    expect(checkChosenFiles([f('证书.webp')], { existing: 0, type: TYPE })).toBe('格式错误，请上传【pdf,jpg,png】格式');
    expect(checkChosenFiles([f('证书.pdf', 10 * 1024 * 1024)], { existing: 0, type: TYPE })).toBeNull();
    expect(checkChosenFiles([f('证书.pdf', 10 * 1024 * 1024 + 1)], { existing: 0, type: TYPE })).toBe(
      '文件大小不能超过【10 MB】!',
    );
  });

  it('the content must match the extension: a renamed .exe is refused before it is sent', async () => {
    expect(await checkContent(fileOf('图.png'))).toBeNull();
    expect(await checkContent(fileOf('说明.pdf'))).toBeNull();
    const exe = fileOf('setup.png', 4096, [0x4d, 0x5a, 0x90, 0x00]); // "MZ": a Windows executable
    expect(await checkContent(exe)).toBe('文件内容与扩展名不符，请上传真实的文件');
    expect(await checkContent(fileOf('假.pdf', 100, [0x89, 0x50, 0x4e, 0x47]))).toBe(
      '文件内容与扩展名不符，请上传真实的文件',
    );
  });

  it('the chooser accepts the formats', () => {
    expect(acceptAttr(['pdf', 'jpg'])).toBe('.pdf,.jpg');
  });
});
